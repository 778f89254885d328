import type { ApprovalMode, Session } from '@kodo/core/engine';
import { useCallback, useRef } from 'react';

/**
 * Ctrl+Y: yolo on, or back to the mode before it (default when kodo started in yolo). Refused,
 * with the reason, when the settings disable yolo (`security.disableYoloMode`).
 */
export function useYoloToggle(options: {
  session: Session;
  disabled: boolean;
  onMode(mode: ApprovalMode): void;
  onRefused(message: string): void;
}): () => void {
  const before = useRef<ApprovalMode>('default');
  const { session, disabled, onMode, onRefused } = options;
  return useCallback(() => {
    const current = session.getApprovalMode();
    if (current !== 'yolo' && disabled) {
      onRefused('YOLO mode is disabled by the settings (security.disableYoloMode).');
      return;
    }
    if (current !== 'yolo') before.current = current;
    const next = current === 'yolo' ? before.current : 'yolo';
    session.setApprovalMode(next);
    onMode(next);
  }, [session, disabled, onMode, onRefused]);
}
