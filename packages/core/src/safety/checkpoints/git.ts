import { setTimeout as sleep } from 'node:timers/promises';
import { loadBuiltin } from '../../utils/builtin';

/**
 * Runs git against the shadow repository: `GIT_DIR` is kodo's history dir, `GIT_WORK_TREE` the
 * workspace. The project's own `.git` is never read or written, and neither the user's nor the
 * system's git config applies (no hooks, signing, filters or aliases of theirs can interfere).
 */

export interface ShadowGit {
  gitDir: string;
  workTree: string;
  /** PATH to find git on. */
  path: string | undefined;
}

export interface GitResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export class GitError extends Error {
  override readonly name = 'GitError';
}

const IDENTITY = { name: 'kodo', email: 'kodo@localhost' };
const LOCK_RETRIES = 5;
const LOCK_RETRY_MS = 40;

export function shadowGitEnv(repo: ShadowGit): NodeJS.ProcessEnv {
  return {
    ...(repo.path !== undefined ? { PATH: repo.path } : {}),
    GIT_DIR: repo.gitDir,
    GIT_WORK_TREE: repo.workTree,
    // No ~/.gitconfig (HOME points into the history dir) and no /etc/gitconfig.
    HOME: repo.gitDir,
    XDG_CONFIG_HOME: repo.gitDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // Paths are file names, never patterns (a file called `*.ts` is just that file).
    GIT_LITERAL_PATHSPECS: '1',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
  };
}

/** Runs `git <args>`; `input` goes to stdin. Resolves with the exit code, never rejects. */
export async function runGit(repo: ShadowGit, args: string[], input?: string): Promise<GitResult> {
  // Loaded on first use: node:child_process is not needed on the way to the first request.
  const { spawn } = loadBuiltin('node:child_process');
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('git', args, {
        cwd: repo.workTree,
        env: shadowGitEnv(repo),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ code: null, stdout: '', stderr: (error as Error).message });
      return;
    }
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on('error', (error) => {
      resolve({
        code: null,
        stdout: '',
        stderr: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed' : error.message,
      });
    });
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr }));
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}

/** Like runGit, but a non-zero exit throws GitError with git's message; returns stdout. */
export async function git(repo: ShadowGit, args: string[], input?: string): Promise<string> {
  let result = await runGit(repo, args, input);
  // Another kodo in the same project holds the index for a moment: wait for it.
  for (
    let retry = 1;
    retry <= LOCK_RETRIES && result.code !== 0 && result.stderr.includes('.lock');
    retry += 1
  ) {
    await sleep(LOCK_RETRY_MS * retry);
    result = await runGit(repo, args, input);
  }
  if (result.code !== 0) {
    const detail = result.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${result.code}`;
    throw new GitError(`git ${args[0]} failed: ${detail}`);
  }
  return result.stdout;
}

/** One entry of `git status --porcelain=v1 -z`. */
export interface StatusEntry {
  /** Index vs HEAD. */
  index: string;
  /** Work tree vs index; `?` for untracked. */
  workTree: string;
  path: string;
}

export function parseStatus(output: string): StatusEntry[] {
  const entries: StatusEntry[] = [];
  for (const record of output.split('\0')) {
    if (record.length < 4) continue;
    entries.push({ index: record[0]!, workTree: record[1]!, path: record.slice(3) });
  }
  return entries;
}
