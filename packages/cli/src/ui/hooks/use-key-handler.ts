import { type Key, useInput } from 'ink';
import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * `useInput` with a handler that is always the latest render's. Ink re-subscribes whenever the
 * handler changes, in an effect after the render: keys arriving in between would otherwise go
 * to the previous render's handler and act on stale state.
 */
export function useKeyHandler(
  handler: (input: string, key: Key) => void,
  options: { isActive: boolean },
): void {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  const stable = useCallback((input: string, key: Key) => latest.current(input, key), []);
  useInput(stable, options);
}
