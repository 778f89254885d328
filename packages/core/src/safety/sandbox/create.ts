import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { BWRAP_MISSING_MESSAGE, BwrapSandbox } from './bwrap';
import { type SandboxChoice, SandboxError } from './config';
import { SeatbeltSandbox } from './seatbelt';
import type { CommandSandbox, SandboxPolicy, SandboxStatus } from './types';

/** What a session's sandbox is built from, besides the choice. */
export interface SandboxSetup {
  /** The workspace roots (writable); the first one is where relative paths are resolved. */
  roots: string[];
  /** The system temp dir (writable), e.g. `os.tmpdir()`. */
  tempDir: string;
  /** kodo's and Gemini CLI's homes: hidden, they hold keys, history, settings and trust rules. */
  hiddenHomes: string[];
  /** The project temp dir inside kodo's home: visible read-only (saved tool outputs). */
  projectTempDir?: string;
  env: NodeJS.ProcessEnv;
  /** Finds an executable on PATH (injectable for tests). */
  findBinary?: (name: string) => string | undefined;
  /** Replaces the bwrap probe (tests). */
  probe?: () => Promise<SandboxStatus>;
  /** An automatic sandbox that cannot start here: told once, commands then run unsandboxed. */
  onUnavailable?: (message: string) => void;
}

/**
 * The session's sandbox for a choice, or undefined when commands run unconfined (off, or an
 * automatic sandbox without bwrap installed). Throws SandboxError when one was asked for and the
 * binary is missing; whether it can actually start is known after `status()`.
 */
export function createSandbox(choice: SandboxChoice, setup: SandboxSetup): CommandSandbox | undefined {
  if (choice.mode === 'off' || !choice.command) return undefined;
  const policy = sandboxPolicy(choice, setup);
  const find = setup.findBinary ?? ((name: string) => findOnPath(name, setup.env));
  if (choice.command === 'sandbox-exec') {
    const binary = find('sandbox-exec');
    if (!binary)
      throw new SandboxError('sandbox-exec was not found; it ships with macOS (/usr/bin/sandbox-exec).');
    return new SeatbeltSandbox({ binary, policy });
  }
  const binary = find('bwrap');
  if (!binary) {
    if (choice.mode === 'auto') return undefined;
    throw new SandboxError(BWRAP_MISSING_MESSAGE);
  }
  return new BwrapSandbox({
    binary,
    policy,
    whenUnavailable: choice.mode === 'required' ? 'error' : 'unsandboxed',
    ...(setup.probe ? { probe: setup.probe } : {}),
    ...(setup.onUnavailable ? { onUnavailable: setup.onUnavailable } : {}),
  });
}

export function sandboxPolicy(choice: SandboxChoice, setup: SandboxSetup): SandboxPolicy {
  const base = setup.roots[0] ?? process.cwd();
  const expand = (path: string) => {
    if (path === '~') return homedir();
    if (path.startsWith('~/')) return join(homedir(), path.slice(2));
    return isAbsolute(path) ? path : resolve(base, path);
  };
  return {
    writablePaths: [...setup.roots, setup.tempDir, ...choice.allowedPaths.map(expand)],
    hiddenPaths: [...setup.hiddenHomes, ...choice.hiddenPaths.map(expand)],
    readOnlyPaths: setup.projectTempDir ? [setup.projectTempDir] : [],
    network: choice.network,
  };
}

/** The first executable file called `name` on PATH. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    // Checked first because a failed accessSync throws, and this runs on the way to the first request.
    if (!existsSync(candidate)) continue;
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
