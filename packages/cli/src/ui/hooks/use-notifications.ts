import { useEffect, useRef } from 'react';
import { focusReport, type NotificationPolicy, notificationSequence } from '../notify';
import { useKeyHandler } from './use-key-handler';

export interface NotificationInputs {
  policy: NotificationPolicy;
  busy: boolean;
  /** The call waiting for approval, if one is. */
  approval: { callId: string; name: string } | undefined;
  write(sequence: string): void;
}

/**
 * Rings and notifies when a long turn ends or a tool needs approval, unless the terminal says it
 * has focus (the person is looking at it already).
 */
export function useNotifications({ policy, busy, approval, write }: NotificationInputs): void {
  const focused = useRef<boolean | undefined>(undefined);
  const turnStartedAt = useRef<number | undefined>(undefined);
  const latest = useRef({ policy, write });
  latest.current = { policy, write };

  useKeyHandler(
    (input) => {
      const report = focusReport(input);
      if (report) focused.current = report === 'in';
    },
    { isActive: policy.enabled, focusReports: true },
  );

  useEffect(() => {
    const notify = (message: string) => {
      if (!latest.current.policy.enabled || focused.current === true) return;
      latest.current.write(notificationSequence(message));
    };
    if (busy) {
      turnStartedAt.current ??= Date.now();
      return;
    }
    const started = turnStartedAt.current;
    turnStartedAt.current = undefined;
    if (started === undefined) return;
    const took = Date.now() - started;
    if (took >= latest.current.policy.longTurnMs) notify(`kodo: done after ${Math.round(took / 1000)} s`);
  }, [busy]);

  const approvalId = approval?.callId;
  const approvalName = useRef(approval?.name);
  approvalName.current = approval?.name;
  useEffect(() => {
    if (approvalId === undefined || !latest.current.policy.enabled || focused.current === true) return;
    latest.current.write(notificationSequence(`kodo: ${approvalName.current} needs your approval`));
  }, [approvalId]);
}
