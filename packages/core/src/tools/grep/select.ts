import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { findGitRoot } from '../ignore-filter';
import type { GrepBackend } from './backend';
import { GitGrepBackend } from './git-backend';
import { JsGrepBackend } from './js-backend';
import { runLineProcess } from './line-process';
import { RipgrepBackend } from './rg-backend';

/** Chooses the backend for one `grep_search` call. */
export interface GrepBackendChoice {
  pick(target: {
    searchPath: string;
    env: NodeJS.ProcessEnv;
    signal: AbortSignal;
    /** `tools.useRipgrep: false`: git grep or the JavaScript scan only. */
    useRipgrep?: boolean;
  }): Promise<GrepBackend>;
}

export interface AutoBackendOptions {
  /** rg binaries to try, in order. Default: the one `@vscode/ripgrep` ships, then `rg` on PATH. */
  ripgrepCandidates?: () => Promise<string[]>;
  /** The git command (default `git` on PATH). */
  git?: string;
}

/** rg 13 introduced `--engine`, which lets look-around patterns fall back to PCRE2. */
const MIN_RIPGREP_MAJOR = 13;
const PROBE_TIMEOUT_MS = 5000;

/**
 * ripgrep when a usable binary exists; else `git grep` when the search path is inside a git work
 * tree; else the JavaScript scan. Which rg works is probed once (the first call) and remembered by
 * this instance; the git check runs per call because it depends on the searched path. A call never
 * switches backend half-way.
 */
export function autoGrepBackends(options: AutoBackendOptions = {}): GrepBackendChoice {
  const candidates = options.ripgrepCandidates ?? defaultRipgrepCandidates;
  const git = options.git ?? 'git';
  const javascript = new JsGrepBackend();
  let ripgrep: Promise<GrepBackend | undefined> | undefined;
  return {
    async pick({ searchPath, env, signal, useRipgrep = true }) {
      if (useRipgrep) {
        // Assigned before any await: calls of one parallel wave share a single probe.
        ripgrep ??= candidates()
          .then((paths) => findRipgrep(paths, env))
          .catch(() => undefined);
        const found = await ripgrep;
        if (found) return found;
      }
      const dir = (await stat(searchPath)).isDirectory() ? searchPath : dirname(searchPath);
      if (await insideGitWorkTree(git, dir, env, signal)) return new GitGrepBackend(git);
      return javascript;
    },
  };
}

async function defaultRipgrepCandidates(): Promise<string[]> {
  const paths: string[] = [];
  try {
    // Loaded on demand: the package resolves its per-platform binary package, and throws when
    // that optional dependency was not installed for this platform.
    paths.push((await import('@vscode/ripgrep')).rgPath);
  } catch {
    // No bundled binary: try the system's.
  }
  paths.push('rg');
  return paths;
}

async function findRipgrep(paths: string[], env: NodeJS.ProcessEnv): Promise<GrepBackend | undefined> {
  for (const path of paths) {
    if (await ripgrepWorks(path, env)) return new RipgrepBackend(path);
  }
  return undefined;
}

async function ripgrepWorks(path: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  let firstLine: string | undefined;
  try {
    const outcome = await runLineProcess({
      command: path,
      args: ['--version'],
      cwd: process.cwd(),
      env,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      onLine(line) {
        firstLine ??= line.toString('utf8');
        return 'more';
      },
    });
    if (outcome.code !== 0) return false;
  } catch {
    return false; // Missing, not executable, or hung.
  }
  const major = /^ripgrep (\d+)\./.exec(firstLine ?? '')?.[1];
  return major !== undefined && Number(major) >= MIN_RIPGREP_MAJOR;
}

async function insideGitWorkTree(
  git: string,
  dir: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<boolean> {
  // Most directories are not in a repository: no process needed to tell.
  if (findGitRoot(dir) === undefined) return false;
  let answer = '';
  try {
    // Also fails for a repository git refuses to use (e.g. owned by another user).
    const outcome = await runLineProcess({
      command: git,
      args: ['rev-parse', '--is-inside-work-tree'],
      cwd: dir,
      env,
      signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
      onLine(line) {
        answer ||= line.toString('utf8').trim();
        return 'more';
      },
    });
    return outcome.code === 0 && answer === 'true';
  } catch {
    signal.throwIfAborted();
    return false;
  }
}
