import { loadSettings, type Settings, SettingsError } from '../config/settings';
import type { ContentGenerator } from '../contracts/content-generator';
import { createRuntime } from '../runtime/create-runtime';
import type { Runtime } from '../runtime/runtime';
import { RuntimeSetupError } from '../runtime/setup-error';
import { checkFolderTrust, TrustStore } from '../safety/trust';
import {
  changedSinceTrusted,
  fingerprintFilePath,
  projectFingerprint,
  TrustFingerprints,
} from '../safety/trust-fingerprint';
import type { ApprovalMode } from '../scheduler/policy/policy';
import type { ConfirmHandler } from '../scheduler/scheduler';
import { sdkApprovals } from './sdk-approvals';

/** The settings preset: what a program chooses when kodo should read the user's configuration. */
export interface RuntimeFromSettingsOptions {
  /** The project directory: file tools stay inside it; its settings count only when `trusted`. */
  cwd: string;
  /** Where settings, keys and `KODO_HOME` are read (default `process.env`); never passed to commands. */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the folder's own settings, hooks, MCP servers, policies and context files count, and
   * stdio MCP servers may start (a cloned repository could name any command). Default: kodo's
   * trust rules decide, as for `kodo -p` (trustedFolders.json, `KODO_TRUST_WORKSPACE`,
   * `security.folderTrust.enabled`); a folder trusted by a rule whose files changed since is not.
   */
  trusted?: boolean;
  /** Overrides `model.name` (`provider:model` or a bare Gemini id). */
  model?: string;
  /** Overrides `general.defaultApprovalMode` (the lock-down in settings still applies). */
  approvalMode?: ApprovalMode;
  /** Answers approval questions; without it, calls that would ask are refused (headless). */
  confirm?: ConfirmHandler;
  /** Your own model backend instead of the configured provider's. */
  generator?: ContentGenerator;
  /** MCP servers that failed, hooks that broke, settings values left out (default: stderr). */
  onWarning?: (message: string) => void;
}

/**
 * A runtime as `kodo -p` in `cwd` would assemble it: the user's settings (`~/.kodo/settings.json`,
 * and the project's when trusted), their MCP servers (started and waited for), hooks, policies,
 * extensions and context files. Sessions come from `runtime.newSession()`; `runtime.close()` ends
 * them (SessionEnd hooks) and stops the servers. `createRuntimeFromOptions` is the preset that
 * reads none.
 */
export async function createRuntimeFromSettings(options: RuntimeFromSettingsOptions): Promise<Runtime> {
  const env = options.env ?? process.env;
  let loaded: ReturnType<typeof loadSettings>;
  let trusted: boolean;
  try {
    const userOnly = loadSettings({ cwd: options.cwd, env, skipProject: true });
    trusted = options.trusted ?? trustedByRules(options.cwd, env, userOnly.merged);
    loaded = trusted ? loadSettings({ cwd: options.cwd, env, user: userOnly }) : userOnly;
  } catch (error) {
    if (error instanceof SettingsError) throw new RuntimeSetupError(error.message, 'config');
    throw error;
  }
  const warn = options.onWarning ?? ((message: string) => process.stderr.write(`[WARNING] ${message}\n`));
  for (const problem of loaded.problems ?? []) warn(`${problem} (ignored)`);
  const generator = options.generator;
  return createRuntime({
    flags: {
      ...(options.model ? { model: options.model } : {}),
      ...(options.approvalMode ? { approvalMode: options.approvalMode } : {}),
    },
    settings: loaded.merged,
    settingsScopes: loaded.scopes,
    cwd: options.cwd,
    env,
    trusted,
    approvals: sdkApprovals(options),
    // The first prompt declares every MCP tool, as in `kodo -p`.
    mcpDiscovery: 'wait',
    onWarning: warn,
    onSessionWarning: warn,
    onPolicyFeedback: warn,
    onHookFeedback: (feedback) => warn(feedback.message),
    clientInfo: { name: 'kodo-sdk', version: '0.1.0' },
    ...(generator
      ? { generator: (model: string) => ({ generator, model, flush: async () => undefined }) }
      : {}),
  });
}

/** kodo's trust rules for `cwd`, failing closed: a broken trust file or a changed folder is untrusted. */
function trustedByRules(cwd: string, env: NodeJS.ProcessEnv, user: Settings): boolean {
  try {
    const store = TrustStore.forEnv(env);
    const verdict = checkFolderTrust({
      path: cwd,
      env,
      enabled: user.security?.folderTrust?.enabled !== false,
      store,
    });
    if (!verdict.trusted || verdict.source !== 'rule') return verdict.trusted;
    const stored = new TrustFingerprints(fingerprintFilePath(store.path)).get(cwd);
    return !changedSinceTrusted(stored, projectFingerprint(cwd));
  } catch {
    return false;
  }
}
