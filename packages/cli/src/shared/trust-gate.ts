import {
  CHANGED_SINCE_TRUSTED_MESSAGE,
  changedSinceTrusted,
  checkFolderTrust,
  type EnvFileResult,
  type FolderTrust,
  fingerprintFilePath,
  fingerprintMatches,
  type LoadedSettings,
  loadEnvFile,
  loadSettings,
  projectFingerprint,
  type Settings,
  SettingsError,
  TrustFileError,
  TrustFingerprints,
  type TrustLevel,
  TrustStore,
  UNTRUSTED_HEADLESS_MESSAGE,
  unverifiableReason,
  unverifiableTrustMessage,
} from '@kodo/core/engine';
import type { CliArgs } from './args';
import { ExitCode } from './exit-codes';

/**
 * Folder trust at startup. The user's settings decide whether the feature is on
 * (a folder cannot vouch for itself), then `--skip-trust`, `KODO_TRUST_WORKSPACE` and the trust
 * rules. An interactive run asks the first time; a headless one in an untrusted folder exits 55,
 * or, with `security.folderTrust.untrustedHeadless: "restricted"`, runs restricted. Restricted
 * means: no project settings (so none of its hooks, MCP servers, tool allow-lists or approval
 * mode), no project policies or context files, and approval forced to `default`.
 */

/**
 * Asks the person whether to trust `folder`; undefined when they did not answer. `changed`: the
 * folder was trusted, but what it runs changed since; `reason`: why that cannot be checked
 * (then it is asked at every start).
 */
export type AskTrust = (
  folder: string,
  options?: { changed?: boolean; reason?: string },
) => Promise<TrustLevel | undefined>;

export type TrustGateResult =
  | {
      ok: true;
      /** The settings to run with: user and project when trusted, the user's alone otherwise. */
      settings: LoadedSettings;
      trusted: boolean;
      /** A line for stderr when the run is restricted. */
      notice?: string;
      /** The `.env` file read, with the names it set (values may be secrets). */
      envFile?: EnvFileResult;
    }
  | { ok: false; exitCode: number; message: string };

export interface TrustGateOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args: Pick<CliArgs, 'skipTrust'>;
  interactive: boolean;
  /** The first-run question (interactive only). */
  ask?: AskTrust;
  store?: TrustStore;
}

/** Said when kodo starts in a folder that is not trusted: what that means, and how to change it. */
export function restrictedNotice(trustFile: string): string {
  return (
    '[INFO] This folder is not trusted: its settings, hooks, MCP servers, policies, commands and context ' +
    'files are not loaded, and every tool call that changes something needs approval. Trust it with ' +
    `\`--skip-trust\` for one run, with /permissions in the interactive UI, or in ${trustFile}.`
  );
}

export async function gateFolderTrust(options: TrustGateOptions): Promise<TrustGateResult> {
  const { cwd, env } = options;
  let userOnly: LoadedSettings;
  try {
    userOnly = loadSettings({ cwd, env, skipProject: true });
  } catch (error) {
    if (error instanceof SettingsError)
      return { ok: false, exitCode: ExitCode.config, message: error.message };
    throw error;
  }
  const store = options.store ?? TrustStore.forEnv(env);
  let verdict: FolderTrust;
  try {
    verdict = folderTrust({ cwd, env, args: options.args, settings: userOnly.merged, store });
  } catch (error) {
    if (error instanceof TrustFileError)
      return { ok: false, exitCode: ExitCode.config, message: error.message };
    throw error;
  }
  let trusted = verdict.trusted;
  const fingerprints = new TrustFingerprints(fingerprintFilePath(store.path));
  // Trust covers the settings, policies and hooks as they were when it was given.
  const byRule = trusted && verdict.source === 'rule';
  const current = byRule ? projectFingerprint(cwd) : undefined;
  const stored = byRule ? fingerprints.get(cwd) : undefined;
  const changed = current !== undefined && changedSinceTrusted(stored, current);
  const reason = unverifiableReason(current);
  if (changed) trusted = false;
  let asked = false;
  if (!trusted && (verdict.source === 'none' || changed) && options.interactive && options.ask) {
    const level = await options.ask(cwd, changed ? { changed: true, ...(reason ? { reason } : {}) } : {});
    asked = true;
    if (level) {
      store.trust(cwd, level);
      trusted = level !== 'DO_NOT_TRUST';
    }
  }
  // Written when trust is (re)given, or first seen for a folder trusted before fingerprints.
  if (trusted && (asked || (byRule && stored === undefined))) {
    fingerprints.set(cwd, current ?? projectFingerprint(cwd));
  }
  if (!trusted && !options.interactive && !restrictedHeadless(userOnly.merged)) {
    const message = reason
      ? unverifiableTrustMessage(reason)
      : changed
        ? CHANGED_SINCE_TRUSTED_MESSAGE
        : UNTRUSTED_HEADLESS_MESSAGE;
    return {
      ok: false,
      exitCode: ExitCode.untrusted,
      message: `${message} Trust decisions are kept in ${store.path}.`,
    };
  }
  try {
    // The folder's `.env` (see config/env-file.ts) once trust is known: an untrusted one may set model
    // credentials only. When it sets anything the settings are read again, so `$VAR` in them
    // sees its values.
    const before = trusted ? loadSettings({ cwd, env, user: userOnly }) : userOnly;
    const advanced = before.merged.advanced;
    const envFile = await loadEnvFile({
      cwd,
      env,
      trusted,
      ...(Array.isArray(advanced?.excludedEnvVars) ? { excludedEnvVars: advanced.excludedEnvVars } : {}),
      ignoreLocalEnv: advanced?.ignoreLocalEnv === true,
    });
    const settings = envFile.applied.length > 0 ? loadSettings({ cwd, env, skipProject: !trusted }) : before;
    return {
      ok: true,
      settings,
      trusted,
      ...(trusted
        ? {}
        : {
            notice: changed
              ? `[INFO] ${heldBackLine('settings, hooks, MCP servers, policies, commands, skills and agents', reason ? { reason } : {})}`
              : restrictedNotice(store.path),
          }),
      ...(envFile.path ? { envFile } : {}),
    };
  } catch (error) {
    if (error instanceof SettingsError)
      return { ok: false, exitCode: ExitCode.config, message: error.message };
    throw error;
  }
}

/**
 * How the folder stands for parts built after startup (the session factory, reloads, the
 * subcommands): trusted, not trusted, or trusted by a rule but changed since (`changed`: its
 * project files are held back until the person trusts it again; `reason` when what it runs
 * cannot be fingerprinted at all). The same inputs give the same answer as at startup, since an
 * answer to the trust question is saved as a rule. A bad trust file counts as not trusted.
 */
export type FolderTrustStatus =
  | { state: 'trusted' }
  | { state: 'untrusted' }
  | { state: 'changed'; reason?: string };

export function folderTrustStatus(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args: Pick<CliArgs, 'skipTrust'>;
  settings: Settings;
}): FolderTrustStatus {
  try {
    const store = TrustStore.forEnv(options.env);
    const verdict = folderTrust({ ...options, store });
    if (!verdict.trusted) return { state: 'untrusted' };
    if (verdict.source !== 'rule') return { state: 'trusted' };
    const current = projectFingerprint(options.cwd);
    const stored = new TrustFingerprints(fingerprintFilePath(store.path)).get(options.cwd);
    if (!changedSinceTrusted(stored, current)) return { state: 'trusted' };
    const reason = unverifiableReason(current);
    return reason ? { state: 'changed', reason } : { state: 'changed' };
  } catch {
    return { state: 'untrusted' };
  }
}

/** Whether the folder is trusted now (see folderTrustStatus): a changed one is not. */
export function isFolderTrusted(options: Parameters<typeof folderTrustStatus>[0]): boolean {
  return folderTrustStatus(options).state === 'trusted';
}

/**
 * One line saying that a changed folder's own `items` are held back, why, and how to trust it
 * again: what the UI, `kodo skills list` and `kodo agents list` show instead of silently
 * listing none.
 */
export function heldBackLine(items: string, status: { reason?: string }): string {
  const why = status.reason
    ? `kodo cannot check what this folder runs against what you trusted (${status.reason})`
    : 'its settings, commands, skills, agents or other files it runs changed since you trusted it';
  return `This project's ${items} are held back: ${why}. Review the change, then trust the folder again: /permissions trust in kodo, or start kodo here and answer its question.`;
}

/**
 * Trusts the folder again as it is now: a rule that trusts it stays (one is added if none
 * does) and what it runs is fingerprinted afresh, so its project files load again.
 */
export function trustFolderAgain(cwd: string, env: NodeJS.ProcessEnv): void {
  const store = TrustStore.forEnv(env);
  const rule = store.ruleFor(cwd);
  if (!rule || rule.level === 'DO_NOT_TRUST') store.trust(cwd, 'TRUST_FOLDER');
  recordTrustedState(cwd, env);
}

/** Records what the folder runs now as what the person trusts (after they trusted it). */
export function recordTrustedState(cwd: string, env: NodeJS.ProcessEnv): void {
  const store = TrustStore.forEnv(env);
  new TrustFingerprints(fingerprintFilePath(store.path)).set(cwd, projectFingerprint(cwd));
}

/**
 * For the subcommands (`kodo mcp`, `skills`, `agents`): whether the folder is trusted, decided
 * from the user's settings alone (a folder cannot switch folder trust off for itself), and the
 * settings to act on, the folder's own only when it is. `status` says why it is not.
 */
export function settingsForFolder(place: { cwd: string; env: NodeJS.ProcessEnv }): {
  loaded: LoadedSettings;
  trusted: boolean;
  status: FolderTrustStatus;
} {
  const userOnly = loadSettings({ ...place, skipProject: true });
  const status = folderTrustStatus({ ...place, args: {}, settings: userOnly.merged });
  const trusted = status.state === 'trusted';
  return { loaded: trusted ? loadSettings({ ...place, user: userOnly }) : userOnly, trusted, status };
}

function folderTrust(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args: Pick<CliArgs, 'skipTrust'>;
  settings: Settings;
  store: TrustStore;
}): FolderTrust {
  return checkFolderTrust({
    path: options.cwd,
    env: options.env,
    skipTrust: options.args.skipTrust === true,
    enabled: options.settings.security?.folderTrust?.enabled !== false,
    store: options.store,
  });
}

function restrictedHeadless(settings: Settings): boolean {
  return settings.security?.folderTrust?.untrustedHeadless === 'restricted';
}

/**
 * Makes a change the person asked kodo itself to make to the project's settings (`kodo mcp add`),
 * so that it does not count as a change since the folder was trusted. Only a folder whose
 * fingerprint matched before the change is updated: a change made behind the person's back
 * earlier is not made good by a later one of theirs.
 */
export async function keepingTrustFingerprint<T>(
  cwd: string,
  env: NodeJS.ProcessEnv,
  change: () => Promise<T>,
): Promise<T> {
  const fingerprints = new TrustFingerprints(fingerprintFilePath(TrustStore.forEnv(env).path));
  const matched = fingerprintMatches(fingerprints.get(cwd), projectFingerprint(cwd));
  const result = await change();
  if (matched) fingerprints.set(cwd, projectFingerprint(cwd));
  return result;
}
