import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { geminiHome, kodoHome } from '../../config/paths';
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
  /** `tools.exclude`, `tools.allowed`, `tools.core`, `tools.confirmationRequired` from settings. */
  toolSettings?: PolicyToolSettings;
  /** Plan mode may write Markdown plans here. */
  plansDir?: string;
  /** Policy file errors and warnings, one line each (the CLI prints them on stderr). */
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
 * Builds the session's policy engine: built-in rules, then `<project>/.kodo/policies` (workspace
 * tier), `~/.kodo/policies` and Gemini CLI's `~/.gemini/policies` as they are (user tier; both
 * replaced by `--policy`), rules from settings (user tier), and `--admin-policy` (admin tier).
 */
export async function loadPolicyEngine(setup: PolicySetup): Promise<PolicyEngine> {
  const feedback = setup.onFeedback ?? (() => undefined);
  const userSources = setup.policyPaths?.length
    ? setup.policyPaths.map((path) => ({ path: resolve(setup.cwd, path), explicit: true }))
    : [userPolicyDir(setup.env), join(geminiHome(setup.env), 'policies')].map((path) => ({
        path,
        explicit: false,
      }));
  const sources: { tier: PolicyTier; path: string; explicit: boolean }[] = [
    ...(setup.extensionPolicyDirs ?? []).map((path) => ({
      tier: 'extension' as const,
      path,
      explicit: false,
    })),
    ...(setup.includeWorkspacePolicies === false
      ? []
      : [{ tier: 'workspace' as const, path: join(setup.cwd, '.kodo', 'policies'), explicit: false }]),
    ...userSources.map((source) => ({ tier: 'user' as const, ...source })),
    ...(setup.adminPolicyPaths ?? []).map((path) => ({
      tier: 'admin' as const,
      path: resolve(setup.cwd, path),
      explicit: true,
    })),
  ];
  const files: { tier: PolicyTier; file: string }[] = [];
  for (const source of sources) {
    for (const file of policyFiles(source.path, source.explicit, source.tier, feedback)) {
      files.push({ tier: source.tier, file });
    }
  }
  const rules: PolicyRule[] = [];
  if (files.length > 0) {
    // The TOML parser loads only when there is a policy file to read.
    const { parsePolicyToml } = await import('./toml-rules');
    for (const { tier, file } of files) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        feedback(`[${tier.toUpperCase()}] Policy file error in ${file}: ${(error as Error).message}`);
        continue;
      }
      const parsed = parsePolicyToml(text, { tier, file });
      // An installed extension may make kodo more careful, never less: its allow rules and
      // yolo-mode rules are dropped.
      rules.push(...(tier === 'extension' ? parsed.rules.filter(isCautionRule) : parsed.rules));
      for (const message of [...parsed.errors, ...parsed.warnings]) feedback(message);
    }
  }
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

/** A `.toml` file, or the `.toml` files directly inside a directory (sorted, no recursion). */
function policyFiles(
  path: string,
  explicit: boolean,
  tier: PolicyTier,
  feedback: (message: string) => void,
): string[] {
  try {
    // Most default directories do not exist: ask without building an exception for each.
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) {
      if (explicit)
        feedback(`[${tier.toUpperCase()}] Policy file error in ${path}: no such file or directory`);
      return [];
    }
    if (!stat.isDirectory()) return [path];
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.name.endsWith('.toml') && !entry.isDirectory())
      .map((entry) => join(path, entry.name))
      .sort();
  } catch (error) {
    // The default directories usually do not exist; a path the person gave must.
    if (explicit) {
      feedback(`[${tier.toUpperCase()}] Policy file error in ${path}: ${(error as Error).message}`);
    }
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
