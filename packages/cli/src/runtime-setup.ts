import {
  createRuntime,
  type Runtime,
  type RuntimeOptions,
  RuntimeSetupError,
  type RuntimeSetupFailure,
} from '@kodo/core/engine';
import type { CliArgs } from './args';
import { ExitCode, FatalError } from './exit-codes';
import { isFolderTrusted } from './trust-gate';
import { KODO_BUILD_KEY, KODO_VERSION } from './version';

/** What a CLI front end says when it asks core for a runtime: its parsed flags instead of core's shape. */
export type CliRuntimeSetup = Omit<RuntimeOptions, 'flags' | 'clientInfo' | 'buildKey' | 'trusted'> & {
  args: CliArgs;
  /** Default: the folder's trust as the trust gate decided it (trustedFolders.json, `--skip-trust`, …). */
  trusted?: boolean;
};

/** The exit code each kind of setup failure ends a CLI run with (Gemini CLI's codes). */
const EXIT_CODES: Record<RuntimeSetupFailure, number> = {
  config: ExitCode.config,
  input: ExitCode.input,
  auth: ExitCode.auth,
  sandbox: ExitCode.sandbox,
  'unpriced-budget': ExitCode.unpricedBudget,
};

/** The runtime (packages/core/src/runtime) for a CLI front end; setup failures become FatalErrors. */
export async function createCliRuntime(setup: CliRuntimeSetup): Promise<Runtime> {
  const { args, trusted, ...options } = setup;
  try {
    return await createRuntime({
      ...options,
      flags: args,
      // An untrusted folder: no context files, policies, hooks or approval mode of its own.
      trusted: trusted ?? isFolderTrusted({ cwd: setup.cwd, env: setup.env, args, settings: setup.settings }),
      clientInfo: { name: 'kodo', version: KODO_VERSION },
      ...(KODO_BUILD_KEY ? { buildKey: KODO_BUILD_KEY } : {}),
    });
  } catch (error) {
    throw asFatalError(error);
  }
}

/** A runtime setup failure as the CLI reports it (its exit code and error name); anything else as it is. */
export function asFatalError(error: unknown): unknown {
  if (!(error instanceof RuntimeSetupError)) return error;
  const name = error.name === 'RuntimeSetupError' ? 'FatalError' : error.name;
  return new FatalError(error.message, EXIT_CODES[error.failure], name);
}
