import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { geminiHome, kodoHome, userHome } from '../../config/paths';
import { loadPart } from '../../on-demand';
import { PolicyEngine } from './engine';
import { commandPrefixPattern, effectivePriority, type PolicyRule, type PolicyTier } from './rule';

/** The tool settings that become rules; other settings are not needed here. */
export interface PolicyToolSettings {
  exclude?: unknown;
  allowed?: unknown;
  core?: unknown;
  confirmationRequired?: unknown;
}

export interface PolicySetup {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--policy`: files or directories that replace the user policy directories. */
  policyPaths?: readonly string[];
  /** `--admin-policy`: files or directories of the admin tier. */
  adminPolicyPaths?: readonly string[];
  /**
   * Files or directories the project's settings name (`policyPaths`, `adminPolicyPaths`): read
   * in the workspace tier whatever tier the key names, and only their deny and ask rules, so a
   * project never outranks the person and a file outside `.kodo/` (which the trust fingerprint
   * does not cover) can only make kodo more careful.
   */
  projectPolicyPaths?: readonly string[];
  /** `tools.exclude`, `tools.allowed`, `tools.core`, `tools.confirmationRequired` from settings. */
  toolSettings?: PolicyToolSettings;
  /** Plan mode may write Markdown plans here. */
  plansDir?: string;
  /**
   * Policy file warnings (a rule read more strictly than written, a rule that could not be
   * saved), one line each (the CLI prints them on stderr). Errors are thrown (PolicyLoadError).
   */
  onFeedback?: (message: string) => void;
  /** Read `<project>/.kodo/policies` (default true; false in folders that are not trusted). */
  includeWorkspacePolicies?: boolean;
  /** The `policies/` folders of active extensions (tier 2: they may deny or ask, never allow). */
  extensionPolicyDirs?: readonly string[];
}

/** `~/.kodo/policies`: the user tier, and where "allow always and save" writes. */
export function userPolicyDir(env: NodeJS.ProcessEnv): string {
  return join(kodoHome(env), 'policies');
}

export function autoSavedPolicyPath(env: NodeJS.ProcessEnv): string {
  return join(userPolicyDir(env), 'auto-saved.toml');
}

/**
 * A policy that could not be loaded: kodo does not run without it (exit 52). Each problem is one
 * line naming the file (`[USER] Policy file error in <file>: …`).
 */
export class PolicyLoadError extends Error {
  override readonly name = 'PolicyLoadError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** The policy locations settings name, by the scope of the file that names them. */
export interface PolicySettingsSource {
  scope: 'user' | 'project';
  policyPaths?: readonly string[];
  adminPolicyPaths?: readonly string[];
}

/**
 * The policy files and folders the person named, from the flags and the settings. `--policy`
 * replaces the user settings' `policyPaths` (both replace the user policy folders);
 * `--admin-policy` adds to the user settings' `adminPolicyPaths`. A project's settings may add
 * policies, but only in the workspace tier and only to deny or ask: a cloned project's settings
 * never write rules that outrank the person's own (an "admin" policy from the project would).
 */
export function namedPolicyPaths(options: {
  flags: { policyPaths?: readonly string[]; adminPolicyPaths?: readonly string[] };
  settings: readonly PolicySettingsSource[];
}): Pick<PolicySetup, 'policyPaths' | 'adminPolicyPaths' | 'projectPolicyPaths'> {
  const user = options.settings.filter((source) => source.scope === 'user');
  const project = options.settings.filter((source) => source.scope === 'project');
  const fromUser = user.flatMap((source) => source.policyPaths ?? []);
  const policyPaths = options.flags.policyPaths?.length ? options.flags.policyPaths : fromUser;
  const adminPolicyPaths = [
    ...(options.flags.adminPolicyPaths ?? []),
    ...user.flatMap((source) => source.adminPolicyPaths ?? []),
  ];
  const projectPolicyPaths = project.flatMap((source) => [
    ...(source.policyPaths ?? []),
    ...(source.adminPolicyPaths ?? []),
  ]);
  return {
    ...(policyPaths.length > 0 ? { policyPaths } : {}),
    ...(adminPolicyPaths.length > 0 ? { adminPolicyPaths } : {}),
    ...(projectPolicyPaths.length > 0 ? { projectPolicyPaths } : {}),
  };
}

/** A named path: absolute, `~/…` (the home directory), or relative to the working directory. */
function namedPath(path: string, setup: PolicySetup): string {
  if (path === '~' || path.startsWith('~/')) return join(userHome(setup.env), path.slice(1));
  return resolve(setup.cwd, path);
}

/**
 * Builds the session's policy engine: built-in rules, then `<project>/.kodo/policies` and the
 * policies the project's settings name (workspace tier), `~/.kodo/policies` and Gemini CLI's
 * `~/.gemini/policies` as they are (user tier; both replaced by `--policy`/`policyPaths`), rules
 * from settings (user tier), and `--admin-policy`/`adminPolicyPaths` (admin tier).
 *
 * Fails closed: a policy file that cannot be read completely — missing when named, unreadable,
 * not TOML, or holding a rule kodo cannot read — throws PolicyLoadError listing every problem,
 * whether the person named it or kodo found it. Running without it could allow what it denies.
 */
export async function loadPolicyEngine(setup: PolicySetup): Promise<PolicyEngine> {
  const feedback = setup.onFeedback ?? (() => undefined);
  const userSources = setup.policyPaths?.length
    ? setup.policyPaths.map((path) => ({ path: namedPath(path, setup), explicit: true }))
    : [userPolicyDir(setup.env), join(geminiHome(setup.env), 'policies')].map((path) => ({
        path,
        explicit: false,
      }));
  const workspace = setup.includeWorkspacePolicies !== false;
  const sources: { tier: PolicyTier; path: string; explicit: boolean; cautionOnly?: boolean }[] = [
    // An installed extension may make kodo more careful, never less.
    ...(setup.extensionPolicyDirs ?? []).map((path) => ({
      tier: 'extension' as const,
      path,
      explicit: false,
      cautionOnly: true,
    })),
    ...(workspace
      ? [
          { tier: 'workspace' as const, path: join(setup.cwd, '.kodo', 'policies'), explicit: false },
          ...(setup.projectPolicyPaths ?? []).map((path) => ({
            tier: 'workspace' as const,
            path: namedPath(path, setup),
            explicit: true,
            cautionOnly: true,
          })),
        ]
      : []),
    ...userSources.map((source) => ({ tier: 'user' as const, ...source })),
    ...(setup.adminPolicyPaths ?? []).map((path) => ({
      tier: 'admin' as const,
      path: namedPath(path, setup),
      explicit: true,
    })),
  ];
  const problems: string[] = [];
  const files: { tier: PolicyTier; file: string; cautionOnly: boolean }[] = [];
  for (const source of sources) {
    for (const file of policyFiles(source, problems)) {
      files.push({ tier: source.tier, file, cautionOnly: source.cautionOnly === true });
    }
  }
  const rules: PolicyRule[] = [];
  if (files.length > 0) {
    // The TOML parser loads only when there is a policy file to read.
    const { parsePolicyToml } = await loadPart.policyToml();
    for (const { tier, file, cautionOnly } of files) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        problems.push(`${errorPrefix(tier, file)} ${(error as Error).message}`);
        continue;
      }
      const parsed = parsePolicyToml(text, { tier, file });
      // Extensions and the project's named files: allow rules and yolo-mode rules are dropped.
      rules.push(...(cautionOnly ? parsed.rules.filter(isCautionRule) : parsed.rules));
      problems.push(...parsed.errors);
      for (const message of parsed.warnings) feedback(message);
    }
  }
  if (problems.length > 0) throw new PolicyLoadError(problems);
  rules.push(...settingsRules(setup.toolSettings ?? {}));
  return new PolicyEngine({
    rules,
    autoSavePath: autoSavedPolicyPath(setup.env),
    onFeedback: feedback,
    ...(setup.plansDir ? { plansDir: setup.plansDir } : {}),
  });
}

function isCautionRule(rule: PolicyRule): boolean {
  return rule.decision !== 'allow' && !rule.modes?.includes('yolo');
}

function errorPrefix(tier: PolicyTier, file: string): string {
  return `[${tier.toUpperCase()}] Policy file error in ${file}:`;
}

/**
 * A `.toml` file, or the `.toml` files directly inside a directory (sorted, no recursion). A
 * default directory may be absent; a path the person named must exist, and a directory that
 * exists must be readable (its files may hold denials).
 */
function policyFiles(
  source: { tier: PolicyTier; path: string; explicit: boolean },
  problems: string[],
): string[] {
  const { tier, path, explicit } = source;
  try {
    // Most default directories do not exist: ask without building an exception for each.
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) {
      if (explicit) problems.push(`${errorPrefix(tier, path)} no such file or directory`);
      return [];
    }
    if (!stat.isDirectory()) return [path];
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.name.endsWith('.toml') && !entry.isDirectory())
      .map((entry) => join(path, entry.name))
      .sort();
  } catch (error) {
    problems.push(`${errorPrefix(tier, path)} ${(error as Error).message}`);
    return [];
  }
}

const SHELL_TOOL = 'run_shell_command';
const ALL_BUT_PLAN = ['default', 'auto_edit', 'yolo'] as const;

/**
 * Rules derived from settings, in the user tier: `tools.exclude` (deny, 4.4),
 * `tools.confirmationRequired` (ask, 4.35, above yolo's allow-all), `tools.allowed`
 * (allow, 4.3; `run_shell_command(git)` allows that command prefix and denies other shell
 * commands at 4.29), `tools.core` (allow, 4.25, and deny every other tool at 4.24 outside plan
 * mode).
 */
export function settingsRules(settings: PolicyToolSettings): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const at = (priority: number) => effectivePriority('user', priority);
  for (const entry of stringList(settings.exclude)) {
    rules.push({
      ...toolEntry(entry),
      decision: 'deny',
      priority: at(400),
      source: 'settings tools.exclude',
    });
  }
  for (const entry of stringList(settings.confirmationRequired)) {
    rules.push({
      ...toolEntry(entry),
      decision: 'ask_user',
      priority: at(350),
      alwaysAsk: true,
      source: 'settings tools.confirmationRequired',
    });
  }
  const allowed = stringList(settings.allowed).map(toolEntry);
  for (const entry of allowed) {
    rules.push({ ...entry, decision: 'allow', priority: at(300), source: 'settings tools.allowed' });
  }
  const shellLimited = allowed.some((e) => e.toolName === SHELL_TOOL && e.argsPattern);
  const shellOpen = allowed.some((e) => e.toolName === SHELL_TOOL && !e.argsPattern);
  if (shellLimited && !shellOpen) {
    rules.push({
      toolName: SHELL_TOOL,
      decision: 'deny',
      priority: at(290),
      source: 'settings tools.allowed',
    });
  }
  const core = stringList(settings.core).map(toolEntry);
  if (core.length > 0) {
    for (const entry of core) {
      rules.push({ ...entry, decision: 'allow', priority: at(250), source: 'settings tools.core' });
    }
    rules.push({
      toolName: '*',
      decision: 'deny',
      priority: at(240),
      modes: ALL_BUT_PLAN,
      source: 'settings tools.core',
    });
  }
  return rules;
}

/** `name` or `run_shell_command(prefix)`. */
function toolEntry(entry: string): Pick<PolicyRule, 'toolName' | 'argsPattern'> {
  const match = /^([\w-]+)\((.+)\)$/.exec(entry.trim());
  if (match && match[1] === SHELL_TOOL) {
    return { toolName: SHELL_TOOL, argsPattern: commandPrefixPattern(match[2]!.trim()) };
  }
  return { toolName: entry.trim() };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];
}
