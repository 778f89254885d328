import { resolve } from 'node:path';
import { PolicyEngine } from '../../src/scheduler/policy/engine';
import type { ApprovalMode, PolicyCheckInput, PolicyWorkspace } from '../../src/scheduler/policy/policy';
import type { PolicyTier } from '../../src/scheduler/policy/rule';
import { loadShellParser, type ShellParser } from '../../src/scheduler/policy/shell-parser';
import { parsePolicyToml } from '../../src/scheduler/policy/toml-rules';
import type { ToolKind } from '../../src/tools/tool';

/** Rules from TOML text, failing the test on any policy message. */
export function rulesFrom(text: string, tier: PolicyTier = 'user') {
  const parsed = parsePolicyToml(text, { tier, file: `${tier}.toml` });
  const messages = [...parsed.errors, ...parsed.warnings];
  if (messages.length > 0) throw new Error(messages.join('\n'));
  return parsed.rules;
}

let sharedParser: Promise<ShellParser> | undefined;
/** One parser for the whole test file: loading the grammar per engine would slow the suite. */
export const sharedShellParser = () => {
  sharedParser ??= loadShellParser();
  return sharedParser;
};

export function engineWith(toml: Partial<Record<PolicyTier, string>> = {}, plansDir?: string) {
  const rules = Object.entries(toml).flatMap(([tier, text]) => rulesFrom(text!, tier as PolicyTier));
  return new PolicyEngine({ rules, loadShellParser: sharedShellParser, ...(plansDir ? { plansDir } : {}) });
}

const KINDS: Record<string, ToolKind> = {
  read_file: 'read',
  glob: 'search',
  grep_search: 'search',
  list_directory: 'search',
  write_file: 'edit',
  replace: 'edit',
  run_shell_command: 'execute',
  web_fetch: 'fetch',
};

export const call = (name: string, args: Record<string, unknown> = {}): PolicyCheckInput => ({
  name,
  kind: KINDS[name] ?? 'other',
  args,
});
export const shell = (command: string) => call('run_shell_command', { command });

/** A workspace at /ws (nothing on disk needed: no symlinks to follow there). */
export const WORKSPACE: PolicyWorkspace = {
  roots: ['/ws'],
  absolute: (path) => resolve('/ws', path),
  contains: (path) => path === '/ws' || path.startsWith('/ws/'),
};

export const ctx = (mode: ApprovalMode = 'default', interactive = true) => ({
  mode,
  interactive,
  workspace: WORKSPACE,
});
