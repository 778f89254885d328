/**
 * Why a runtime could not be assembled. Front ends map each kind to what they report (the CLI:
 * an exit code; ACP: a protocol error; the SDK: the error itself).
 */
export type RuntimeSetupFailure =
  /** A settings value or policy file that cannot be used, a mode the lock-down refuses. */
  | 'config'
  /** Something the caller named that does not exist (an extension, a folder, a session log). */
  | 'input'
  /** No key for the model, or an auth type the administrator does not allow. */
  | 'auth'
  /** A sandbox asked for that cannot start. */
  | 'sandbox'
  /** A dollar budget with a model that has no known price. */
  | 'unpriced-budget';

export class RuntimeSetupError extends Error {
  constructor(
    message: string,
    readonly failure: RuntimeSetupFailure,
    /** The error's name as Gemini CLI reports it in json output (`AuthError`, `SandboxError`). */
    override readonly name: string = 'RuntimeSetupError',
  ) {
    super(message);
  }
}
