import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isUnder } from './host-paths';

/**
 * The workspace files that make code run later, outside the sandbox: git hooks and config (a
 * hook or `core.fsmonitor` runs on the user's next `git commit`), and the settings of kodo,
 * Gemini CLI, Claude Code and editors (hooks, MCP servers and tasks run at their next start). A
 * sandboxed command sees them read-only — also when they do not exist yet, so it cannot create
 * `.git/hooks/pre-commit` or `.kodo/settings.json` either: a missing one is created empty on the
 * host first, mounted read-only, and removed again as soon as no running command needs it
 * (session-files.ts): after a command the project is as it was.
 */

/**
 * Settings directories of agents and editors, in each workspace root: created empty when
 * missing, for as long as a command that needs them runs.
 */
export const CONTROL_DIRS = ['.kodo', '.gemini', '.claude', '.vscode'] as const;
/** Protected when they exist; rarer, so not worth an empty directory in every workspace. */
const CONTROL_DIRS_IF_PRESENT = ['.idea', '.cursor'] as const;

export interface ControlPath {
  path: string;
  kind: 'dir' | 'file';
  /** Not on the host yet: create it empty before mounting over it. */
  missing: boolean;
}

/**
 * The control paths of one workspace root, read from the disk now (the user may `git init`
 * during the session). `exempt` are writable paths the user configured: control paths inside
 * them stay writable. `madeByKodo` says which are mount points kodo made (they count as missing).
 */
export function controlPaths(
  root: string,
  exempt: readonly string[],
  options: { madeByKodo?: (path: string) => boolean } = {},
): ControlPath[] {
  const out: ControlPath[] = [];
  // An empty mount point kodo made for a command still running stands for a missing path.
  const madeByKodo = options.madeByKodo ?? (() => false);
  const add = (path: string, kind: ControlPath['kind'], options: { create: boolean }) => {
    if (exempt.some((dir) => isUnder(path, dir))) return;
    const missing = madeByKodo(path) || !existsSync(path);
    if (missing && !options.create) return;
    out.push({ path, kind, missing });
  };
  for (const dir of CONTROL_DIRS) add(join(root, dir), 'dir', { create: true });
  for (const dir of CONTROL_DIRS_IF_PRESENT) add(join(root, dir), 'dir', { create: false });
  const dotGit = join(root, '.git');
  const git = madeByKodo(dotGit) ? undefined : kindOf(dotGit);
  if (git === undefined) {
    // No repository: an empty read-only `.git` keeps `git init` + a planted hook from happening.
    // Git skips an invalid `.git` directory, so a parent repository still works.
    add(dotGit, 'dir', { create: true });
  } else if (git === 'dir') {
    gitDirPaths(dotGit, root, add, { create: true });
    for (const module of subdirs(join(dotGit, 'modules'))) gitDirPaths(module, root, add, { create: false });
  } else {
    // A worktree or submodule: `.git` points elsewhere. The pointer itself must not change.
    add(dotGit, 'file', { create: false });
    const gitDir = gitFileTarget(dotGit);
    if (gitDir) {
      gitDirPaths(gitDir, root, add, { create: false });
      const common = commonDir(gitDir);
      if (common) gitDirPaths(common, root, add, { create: false });
    }
  }
  return out;
}

type Add = (path: string, kind: ControlPath['kind'], options: { create: boolean }) => void;

function gitDirPaths(gitDir: string, root: string, add: Add, options: { create: boolean }): void {
  add(join(gitDir, 'hooks'), 'dir', options);
  add(join(gitDir, 'config'), 'file', options);
  add(join(gitDir, 'config.worktree'), 'file', { create: false });
  const hooksPath = configuredHooksPath(join(gitDir, 'config'), root);
  if (hooksPath) add(hooksPath, 'dir', { create: false });
}

/** `core.hooksPath` (husky and others point it into the working tree). */
function configuredHooksPath(configFile: string, root: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch {
    return undefined;
  }
  const match = /^\s*hookspath\s*=\s*(.+?)\s*$/im.exec(text);
  if (!match?.[1]) return undefined;
  const value = match[1].replace(/^"(.*)"$/, '$1');
  if (value.startsWith('~/')) return join(homedir(), value.slice(2));
  return isAbsolute(value) ? value : resolve(root, value);
}

function gitFileTarget(dotGit: string): string | undefined {
  try {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!match?.[1]) return undefined;
    return resolve(dirname(dotGit), match[1]);
  } catch {
    return undefined;
  }
}

function commonDir(gitDir: string): string | undefined {
  try {
    const value = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return value === '' ? undefined : resolve(gitDir, value);
  } catch {
    return undefined;
  }
}

function kindOf(path: string): 'dir' | 'file' | undefined {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name));
  } catch {
    return [];
  }
}
