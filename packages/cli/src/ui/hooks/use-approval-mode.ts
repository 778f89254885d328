import type { ApprovalMode, Session } from '@kodo/core/engine';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * The session's approval mode as the footer shows it: read from the session and redrawn on its
 * `approval_mode_changed` event, whoever switched it (keys, exit_plan_mode, a command), so the
 * footer never goes stale and nothing has to remember to refresh it.
 */
export function useApprovalMode(session: Session): ApprovalMode {
  const subscribe = useCallback(
    (redraw: () => void) =>
      session.subscribe((change) => {
        if (change.type === 'approval_mode_changed') redraw();
      }),
    [session],
  );
  return useSyncExternalStore(subscribe, () => session.getApprovalMode());
}
