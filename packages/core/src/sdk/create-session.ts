import { RuntimeSetupError } from '../runtime/setup-error';
import type { Session } from '../session/session';
import { type CreateSessionOptions, runtimeFromOptions } from './options-runtime';

export type { CreateSessionOptions } from './options-runtime';

/**
 * Thrown by `createSession` when the model cannot be used (unknown provider, missing key) or the
 * approval mode is refused. It is a RuntimeSetupError: `failure` says which kind.
 */
export class SessionSetupError extends RuntimeSetupError {
  override readonly name = 'SessionSetupError';
}

/**
 * One session of the preset that reads nothing (createRuntimeFromOptions), synchronously: the
 * provider its model names, kodo's built-in tools in a workspace rooted at `cwd`, and the
 * approval mode's policy. Nothing is read from settings or context files: a program says what it
 * wants. `session.dispose()` is its runtime's `close()` (background commands stop there).
 */
export function createSession(options: CreateSessionOptions): Session {
  try {
    return runtimeFromOptions(options, { sessionDisposesRuntime: true }).newSessionNow().session;
  } catch (error) {
    if (error instanceof RuntimeSetupError) throw new SessionSetupError(error.message, error.failure);
    throw error;
  }
}
