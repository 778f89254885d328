import { useCallback, useRef, useState } from 'react';
import type { SubmitMode } from '../components/input-prompt';

/** A line typed while the agent was working, waiting to be sent as if typed now. */
export interface QueuedPrompt {
  text: string;
  mode: SubmitMode;
}

export interface PromptQueue {
  /** Oldest first. */
  items: readonly QueuedPrompt[];
  push(item: QueuedPrompt): void;
  /** Removes the newest entry (Esc); false when there was none. */
  dropLast(): boolean;
  /** Takes the oldest entry, if any. */
  shift(): QueuedPrompt | undefined;
}

/**
 * Type-ahead as a queue. The ref holds the truth (several keys and the end of a turn may land
 * in one tick, before React renders); the state only makes the list on screen follow it.
 */
export function usePromptQueue(): PromptQueue {
  const entries = useRef<QueuedPrompt[]>([]);
  const [items, setItems] = useState<readonly QueuedPrompt[]>([]);
  const publish = useCallback(() => setItems([...entries.current]), []);
  const push = useCallback(
    (item: QueuedPrompt) => {
      entries.current.push(item);
      publish();
    },
    [publish],
  );
  const dropLast = useCallback(() => {
    if (entries.current.length === 0) return false;
    entries.current.pop();
    publish();
    return true;
  }, [publish]);
  const shift = useCallback(() => {
    const first = entries.current.shift();
    if (first) publish();
    return first;
  }, [publish]);
  return { items, push, dropLast, shift };
}
