import type { ApprovalMode } from '../scheduler/policy/policy';
import {
  type ApprovalLockdown,
  type ApprovalModeDecision,
  ApprovalModeError,
  type ApprovalModeSource,
  decideApprovalMode,
} from './approval-mode-gate';
import type { SessionChange } from './session-types';

/**
 * The approval mode a session is in. The first mode and every change are decided against the
 * lock-down (approval-mode-gate.ts), whoever asks (keys, a tool such as exit_plan_mode, ACP, the
 * SDK); each change is announced, so every front end (the UI's footer, ACP, stream-json) follows
 * without polling.
 */
export class ApprovalModeState {
  private mode: ApprovalMode;

  /** Throws ApprovalModeError when the lock-down forbids the first mode: a start has no one to tell. */
  constructor(
    first: { mode: ApprovalMode; source: ApprovalModeSource },
    private readonly lockdown: ApprovalLockdown,
    private readonly announce: (change: SessionChange) => void,
  ) {
    const decision = decideApprovalMode(first, { lockdown });
    if (!decision.ok) throw new ApprovalModeError(decision.message);
    this.mode = decision.mode;
  }

  get(): ApprovalMode {
    return this.mode;
  }

  /** The mode the session is in after the request, or why it was refused (the mode then stays). */
  set(mode: ApprovalMode, source: ApprovalModeSource): ApprovalModeDecision {
    const decision = decideApprovalMode({ mode, source }, { lockdown: this.lockdown });
    if (!decision.ok || decision.mode === this.mode) return decision;
    const from = this.mode;
    this.mode = decision.mode;
    // The mode is not part of the recorded conversation, so nothing is recorded for it.
    this.announce({ type: 'approval_mode_changed', from, to: decision.mode, source });
    return decision;
  }
}
