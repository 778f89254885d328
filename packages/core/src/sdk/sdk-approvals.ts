import type { Approvals, ConfirmHandler } from '../scheduler/scheduler';

/**
 * The SDK's documented contract, turned into the engine's explicit statement once, here at the
 * boundary: a program that passes `confirm` answers approval questions (interactive); one that
 * passes none gets every call that would ask refused, as in `kodo -p`. Inside the engine nothing
 * infers interactivity from a handler being there (Approvals).
 */
export function sdkApprovals(options: { confirm?: ConfirmHandler | undefined }): Approvals {
  return options.confirm ? { interactive: true, confirm: options.confirm } : { interactive: false };
}
