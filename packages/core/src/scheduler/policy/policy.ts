import type { ToolKind } from '../../tools/tool';

export type ApprovalMode = 'default' | 'auto_edit' | 'yolo' | 'plan';
export const APPROVAL_MODES: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo', 'plan'];

export type PolicyDecision = 'allow' | 'deny' | 'ask_user';

export interface PolicyCheckInput {
  name: string;
  kind: ToolKind;
  args: Record<string, unknown>;
}

export interface PolicyCheckResult {
  decision: PolicyDecision;
  /** Appended to the deny error the model reads. */
  denyMessage?: string;
}

/** Decides whether a tool call may run, must be confirmed, or is refused. */
export interface PolicyChecker {
  check(call: PolicyCheckInput, context: { mode: ApprovalMode; interactive: boolean }): PolicyCheckResult;
  /**
   * "Allow always" from a confirmation: allow calls like this one for the rest of the session,
   * and with `save` from now on (the user's policy file).
   */
  allowForSession(call: PolicyCheckInput, options?: { save?: boolean }): void;
}
