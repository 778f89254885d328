import type { ApprovalMode, Session } from '@kodo/core/engine';
import { useCallback, useRef } from 'react';

/**
 * Ctrl+Y: yolo on, or back to the mode before it (default when kodo started in yolo). The
 * session decides (approval-mode-gate.ts): under the settings' lock-down it refuses, with the
 * reason shown.
 */
export function useYoloToggle(options: { session: Session; onRefused(message: string): void }): () => void {
  const before = useRef<ApprovalMode>('default');
  const { session, onRefused } = options;
  return useCallback(() => {
    const current = session.getApprovalMode();
    const next = current === 'yolo' ? before.current : 'yolo';
    const decision = session.setApprovalMode(next, { source: 'keys' });
    if (!decision.ok) {
      onRefused(decision.message);
      return;
    }
    // The footer follows the session's approval_mode_changed event (use-approval-mode.ts).
    if (current !== 'yolo') before.current = current;
  }, [session, onRefused]);
}
