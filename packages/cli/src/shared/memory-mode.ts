import { setFlagsFromString } from 'node:v8';

/**
 * Asks V8 to favour memory over speed for the rest of the process: the interactive UI from the
 * start, a headless run once it has become a long session (see long-session-memory.ts).
 *
 * Ink redraws the whole live region on every repaint and makes a few megabytes of short-lived
 * garbage each time; while an answer streams that is hundreds of megabytes a minute. With its
 * default, throughput-first heuristics V8 answers that rate by growing the young generation to
 * its 32 MB maximum and letting the old generation reach four times its live size before
 * collecting it: after 10k streamed tokens the heap held ~80-95 MB for ~16 MB of live objects,
 * and the process peaked at ~135-150 MB. In memory-saving mode the old generation is collected
 * at a small margin over its live size and the young generation stays at half its maximum; the
 * same stream peaks at ~100 MB.
 *
 * The flag changes only heuristics (when to collect, how eagerly to optimise code), not any
 * limit: the heap may still grow to Node's usual maximum, so a long session cannot run out of
 * memory sooner. V8 reads it as it goes, so setting it after start-up takes effect.
 */
export function favourMemoryOverSpeed(): void {
  // Compiled code is cached with the V8 flags it was made under: what start-up compiled is written
  // now, under the flags the next start will have (Node 22.10+; before, Node writes it at exit).
  const nodeModule = process.getBuiltinModule?.('node:module') as
    | { flushCompileCache?: () => void }
    | undefined;
  nodeModule?.flushCompileCache?.();
  setFlagsFromString('--optimize-for-size');
}
