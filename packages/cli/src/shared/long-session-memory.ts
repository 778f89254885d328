// A headless run that goes on for more than a few turns switches V8 to memory-saving mode. Its own
// file so the start-up path does not load node:v8 (memory-mode.ts) for the runs that never get long.

import { onDemand } from '../on-demand';

/** Model turns after which a headless run switches to memory-saving mode. */
export const LONG_SESSION_TURNS = 20;

/**
 * An event observer for a headless run: after `turns` model turns it calls `switchMode` once.
 * Not from the start: the chunks a run loads after the switch (the tools' at the first tool call)
 * would compile without their code caches, and most runs end within a few turns. Not late
 * either: V8 does not give back a young generation that has already grown. A replayed
 * 1,600-turn session peaked at 97-102 MB with ~15 MB live (the rest a young generation grown to
 * its maximum by allocation volume); switching at turn 20 it peaks at 78-81 MB, at turn 200 still
 * at 81-102 MB (docs/performance.md).
 */
export function favourMemoryWhenLong(options: {
  turns?: number;
  switchMode?: () => void;
}): (event: { type: string }) => void {
  const limit = options.turns ?? LONG_SESSION_TURNS;
  const switchMode =
    options.switchMode ??
    (() => {
      void onDemand.memoryMode().then((module) => module.favourMemoryOverSpeed());
    });
  let turns = 0;
  let switched = false;
  return (event) => {
    if (switched || event.type !== 'finished') return;
    turns += 1;
    if (turns < limit) return;
    switched = true;
    switchMode();
  };
}
