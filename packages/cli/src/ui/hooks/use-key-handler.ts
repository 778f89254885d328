import { type Key, useInput } from 'ink';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { focusReport } from '../notify';

/**
 * `useInput` with a handler that is always the latest render's. Ink re-subscribes whenever the
 * handler changes, in an effect after the render: keys arriving in between would otherwise go
 * to the previous render's handler and act on stale state.
 *
 * The terminal's focus reports (CSI I / CSI O, asked for by the notifications) are not keys:
 * only a handler that asks for them (`focusReports`) sees them, so none types `[I` into a text.
 */
export function useKeyHandler(
  handler: (input: string, key: Key) => void,
  options: { isActive: boolean; focusReports?: boolean },
): void {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  const wantsFocus = options.focusReports === true;
  const stable = useCallback(
    (input: string, key: Key) => {
      if ((focusReport(input) !== undefined) !== wantsFocus) return;
      latest.current(input, key);
    },
    [wantsFocus],
  );
  useInput(stable, { isActive: options.isActive });
}
