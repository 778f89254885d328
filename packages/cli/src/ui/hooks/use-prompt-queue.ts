import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SubmitMode } from '../components/input-prompt';

/** A line typed while the agent was working, waiting to be sent as if typed now. */
export interface QueuedPrompt {
  text: string;
  mode: SubmitMode;
}

export interface PromptQueue {
  /** Waiting lines, oldest first. */
  items: readonly QueuedPrompt[];
  /**
   * Runs the line now when nothing runs (or `now` says it may run alongside), else queues it
   * (`first`: ahead of the waiting lines).
   */
  send(line: QueuedPrompt, options?: { now?: boolean; first?: boolean }): void;
  /** Removes the newest waiting line (Esc); false when there was none. */
  dropLast(): boolean;
  /** Removes every waiting line (Ctrl+C stops the turn and what was queued behind it); how many. */
  clear(): number;
}

interface Options {
  /** What a line does (a command, a shell command, a prompt); resolves when it is over. */
  dispatch(line: QueuedPrompt): Promise<void>;
  /** A turn runs (the agent's own state). */
  busy: boolean;
  /** Lines wait anyway (an approval dialog is open). */
  paused: boolean;
}

/**
 * Type-ahead as a queue: lines sent while something runs wait and go out one by one, in order,
 * through the same `dispatch` as a line typed at an idle prompt. The refs hold the truth (several
 * keys and the end of a turn may land in one tick, before React renders); the state only makes
 * the list on screen follow.
 */
export function usePromptQueue({ dispatch, busy, paused }: Options): PromptQueue {
  const entries = useRef<QueuedPrompt[]>([]);
  const [items, setItems] = useState<readonly QueuedPrompt[]>([]);
  /** Lines dispatched and not over yet: a prompt is busy only once its attachments are read. */
  const working = useRef(0);
  const [settled, setSettled] = useState(0);
  const publish = useCallback(() => setItems([...entries.current]), []);

  const start = useCallback(
    (line: QueuedPrompt) => {
      working.current += 1;
      void dispatch(line).finally(() => {
        working.current -= 1;
        setSettled((count) => count + 1);
      });
    },
    [dispatch],
  );

  const send = useCallback(
    (line: QueuedPrompt, options: { now?: boolean; first?: boolean } = {}) => {
      const occupied = busy || paused || working.current > 0 || entries.current.length > 0;
      if (occupied && !options.now) {
        if (options.first) entries.current.unshift(line);
        else entries.current.push(line);
        publish();
        return;
      }
      start(line);
    },
    [busy, paused, start, publish],
  );

  const dropLast = useCallback(() => {
    if (entries.current.length === 0) return false;
    entries.current.pop();
    publish();
    return true;
  }, [publish]);

  const clear = useCallback(() => {
    const dropped = entries.current.length;
    if (dropped === 0) return 0;
    entries.current = [];
    publish();
    return dropped;
  }, [publish]);

  useEffect(() => {
    void settled; // re-checked each time a dispatched line is over
    if (busy || paused || working.current > 0) return;
    const next = entries.current.shift();
    if (!next) return;
    publish();
    start(next);
  }, [settled, busy, paused, start, publish]);

  return useMemo(() => ({ items, send, dropLast, clear }), [items, send, dropLast, clear]);
}
