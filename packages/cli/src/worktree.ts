import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * `kodo -w/--worktree [name]`: the session runs in a new git worktree of the project, on a new
 * branch, as Gemini CLI's and Claude Code's flag does: `<repo>/.kodo/worktrees/<name>` on branch
 * `worktree-<name>` (a generated name when none is given). Untracked files the project lists in
 * `.worktreeinclude` (gitignore patterns: `.env`, local config) are copied in, since a fresh
 * checkout lacks them. At exit a worktree with nothing new — no commits, no changed, staged or
 * new files (the copied ones as they were copied) — is removed with its branch; any other is kept
 * and named, so no work is lost.
 */

export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
}

export interface Worktree {
  name: string;
  branch: string;
  /** The worktree's folder. */
  path: string;
  /** Where the session runs: the same place inside the worktree as where kodo was started. */
  cwd: string;
  /** The commit it started from. */
  base: string;
  /** Files copied from `.worktreeinclude` (relative paths) with their size and mtime after copying. */
  copied: Map<string, { size: number; mtimeMs: number }>;
}

export type WorktreeOutcome =
  | { kept: false; path: string; branch: string }
  | { kept: true; path: string; branch: string; why: string };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export async function enterWorktree(options: {
  cwd: string;
  /** `''`: generate one. */
  name: string;
  env: NodeJS.ProcessEnv;
}): Promise<Worktree> {
  const { cwd, env } = options;
  const root = await git(['rev-parse', '--show-toplevel'], { cwd, env }).catch(() => undefined);
  if (root === undefined) {
    throw new WorktreeError(
      `--worktree needs a git repository, and ${cwd} is not inside one (run git init, or start kodo without -w).`,
    );
  }
  const top = root.trim();
  const base = (
    await git(['rev-parse', '--verify', 'HEAD'], { cwd: top, env }).catch(() => {
      throw new WorktreeError('--worktree needs a commit to start from; this repository has none yet.');
    })
  ).trim();
  const name = options.name === '' ? `worktree-${randomBytes(4).toString('hex')}` : options.name;
  if (!NAME.test(name) || name.includes('..') || name.endsWith('.lock')) {
    throw new WorktreeError(
      `Invalid worktree name "${name}": use letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit).`,
    );
  }
  const branch = name.startsWith('worktree-') ? name : `worktree-${name}`;
  const path = join(top, '.kodo', 'worktrees', name);
  if (existsSync(path)) throw new WorktreeError(`A worktree named "${name}" already exists: ${path}`);
  if (
    await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: top, env }).then(
      () => true,
      () => false,
    )
  ) {
    throw new WorktreeError(`The branch ${branch} already exists; choose another name.`);
  }
  excludeWorktreesFolder(top);
  mkdirSync(dirname(path), { recursive: true });
  try {
    await git(['worktree', 'add', '--quiet', '-b', branch, path, base], { cwd: top, env });
  } catch (error) {
    throw new WorktreeError(`Could not create the worktree: ${(error as Error).message}`);
  }
  const copied = await copyIncluded(top, path, env);
  const inside = relative(top, cwd);
  const sessionCwd =
    inside && !inside.startsWith('..') && existsSync(join(path, inside)) ? join(path, inside) : path;
  return { name, branch, path, cwd: sessionCwd, base, copied };
}

/** Removes a worktree with nothing new (and its branch); keeps any other and says why. */
export async function leaveWorktree(worktree: Worktree, env: NodeJS.ProcessEnv): Promise<WorktreeOutcome> {
  const { path, branch } = worktree;
  const where = { path, branch };
  if (!existsSync(path)) return { kept: true, ...where, why: 'its folder is gone' };
  let why: string | undefined;
  try {
    const commits = Number(
      (await git(['rev-list', '--count', `${worktree.base}..HEAD`], { cwd: path, env })).trim(),
    );
    const status = await git(['status', '--porcelain', '--untracked-files=all', '-z'], { cwd: path, env });
    const changed = status
      .split('\0')
      .filter((entry) => entry !== '')
      .filter((entry) => !(entry.startsWith('?? ') && copiedUnchanged(worktree, entry.slice(3))));
    if (commits > 0) why = `${commits} new commit${commits === 1 ? '' : 's'}`;
    else if (changed.length > 0) why = `${changed.length} changed file${changed.length === 1 ? '' : 's'}`;
  } catch (error) {
    return { kept: true, ...where, why: `it could not be checked (${(error as Error).message})` };
  }
  if (why) return { kept: true, ...where, why };
  try {
    // --force: the copied .worktreeinclude files are untracked (or ignored) and go with it.
    await git(['worktree', 'remove', '--force', path], { cwd: dirname(path), env });
    await git(['branch', '-D', branch], { cwd: dirname(path), env });
  } catch (error) {
    return { kept: true, ...where, why: `removing it failed (${(error as Error).message})` };
  }
  return { kept: false, ...where };
}

/** The line said at exit. */
export function worktreeOutcomeLine(outcome: WorktreeOutcome): string {
  return outcome.kept
    ? `Worktree kept (${outcome.why}): ${outcome.path} on branch ${outcome.branch}. Continue there with: cd ${outcome.path} && kodo --resume latest`
    : `Worktree ${outcome.path} had no changes and was removed (with branch ${outcome.branch}).`;
}

function copiedUnchanged(worktree: Worktree, file: string): boolean {
  const recorded = worktree.copied.get(file);
  if (!recorded) return false;
  try {
    const info = statSync(join(worktree.path, file));
    return info.size === recorded.size && info.mtimeMs === recorded.mtimeMs;
  } catch {
    return false;
  }
}

/**
 * The untracked files of the project (ignored ones included) that match `.worktreeinclude`'s
 * patterns, copied to the same place in the worktree. git itself matches the patterns, so they
 * mean what they mean in a .gitignore. Nothing under `.kodo/worktrees` is copied.
 */
async function copyIncluded(
  top: string,
  target: string,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, { size: number; mtimeMs: number }>> {
  const copied = new Map<string, { size: number; mtimeMs: number }>();
  const list = join(top, '.worktreeinclude');
  if (!existsSync(list)) return copied;
  const out = await git(['ls-files', '--others', '--ignored', '-z', `--exclude-from=${list}`], {
    cwd: top,
    env,
  });
  const worktrees = `.kodo${sep}worktrees${sep}`;
  for (const file of out.split('\0')) {
    if (file === '' || file.split('/').join(sep).startsWith(worktrees)) continue;
    const from = join(top, file);
    const to = join(target, file);
    try {
      // Regular files only: a link could hand the worktree (the session's workspace) a file from
      // outside the project.
      if (!lstatSync(from).isFile()) continue;
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(from, to);
      const info = statSync(to);
      copied.set(file, { size: info.size, mtimeMs: info.mtimeMs });
    } catch {
      // A file that vanished or cannot be read stays behind; the worktree is still usable.
    }
  }
  return copied;
}

/** `.kodo/worktrees/` in the repository's own exclude file, so the project's status stays clean. */
function excludeWorktreesFolder(top: string): void {
  const line = '/.kodo/worktrees/';
  let exclude: string;
  try {
    const gitDir = readGitDir(top);
    exclude = join(gitDir, 'info', 'exclude');
    const current = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
    if (current.split('\n').includes(line)) return;
    mkdirSync(dirname(exclude), { recursive: true });
    appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}${line}\n`);
  } catch {
    // Only tidiness: the worktree works without it.
  }
}

/** The repository's git folder (the common one when the project is itself a worktree). */
function readGitDir(top: string): string {
  const dotGit = join(top, '.git');
  if (statSync(dotGit).isDirectory()) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
  if (!pointer) throw new Error('no gitdir');
  const gitDir = isAbsolute(pointer) ? pointer : join(top, pointer);
  const common = join(gitDir, 'commondir');
  return existsSync(common) ? join(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
}

function git(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd: options.cwd, env: options.env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) reject(new Error((stderr || error.message).trim().split('\n')[0]));
        else resolve(stdout);
      },
    );
  });
}
