import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { CommandSandbox, SandboxPolicy, SandboxStatus } from '../../contracts/sandbox';
import { BWRAP_MISSING_MESSAGE, BwrapSandbox } from './bwrap';
import { type SandboxChoice, SandboxError } from './config';
import { credentialPaths, runEssentials, socketDirectories } from './host-paths';
import { PidNamespaceWrapper } from './pid-namespace';
import { SeatbeltSandbox } from './seatbelt';

/** What a session's sandbox is built from, besides the choice. */
export interface SandboxSetup {
  /** The workspace roots (writable); the first one is where relative paths are resolved. */
  roots: string[];
  /** The system temp dir, e.g. `os.tmpdir()`: commands get a private one in its place. */
  tempDir: string;
  /** The user's home directory, where the credential list is looked up (default `os.homedir()`). */
  home?: string;
  /** kodo's and Gemini CLI's homes: hidden, they hold keys, history, settings and trust rules. */
  hiddenHomes: string[];
  /** The project temp dir inside kodo's home: visible read-only (saved tool outputs). */
  projectTempDir?: string;
  env: NodeJS.ProcessEnv;
  /** Finds an executable on PATH (injectable for tests). */
  findBinary?: (name: string) => string | undefined;
  /** Defaults to `process.platform`. */
  platform?: NodeJS.Platform;
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
  const find = setup.findBinary ?? ((name: string) => findOnPath(name, setup.env));
  if (choice.mode === 'off' || !choice.command) return pidNamespaceFor(choice, setup, find);
  const policy = sandboxPolicy(choice, setup);
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

/**
 * With the sandbox off on Linux, commands still get a PID namespace so none outlives the session
 * (`tools.sandbox.pidNamespace: false` turns it off). Not inside another sandbox: bwrap cannot
 * nest there, and the outer one already ends what it started.
 */
function pidNamespaceFor(
  choice: SandboxChoice,
  setup: SandboxSetup,
  find: (name: string) => string | undefined,
): CommandSandbox | undefined {
  if (
    (setup.platform ?? process.platform) !== 'linux' ||
    !choice.pidNamespace ||
    choice.source === 'nested'
  ) {
    return undefined;
  }
  const binary = find('bwrap');
  return binary
    ? new PidNamespaceWrapper({ binary, ...(setup.probe ? { probe: setup.probe } : {}) })
    : undefined;
}

export function sandboxPolicy(choice: SandboxChoice, setup: SandboxSetup): SandboxPolicy {
  const base = setup.roots[0] ?? process.cwd();
  const home = setup.home ?? homedir();
  const expand = (path: string) => {
    if (path === '~') return home;
    if (path.startsWith('~/')) return join(home, path.slice(2));
    return isAbsolute(path) ? path : resolve(base, path);
  };
  const allowed = choice.allowedPaths.map(expand);
  const sockets = choice.allowUnixSockets.map(expand);
  const linux = choice.command === 'bwrap';
  // The hidden and read-only paths are worked out when a command first runs, not when the session
  // is set up: ~40 credential paths joined and the host's /run inspected (realpath, existsSync)
  // cost a run that never starts a command ~5 % of its way to the first request (on Node 20 the
  // joins alone made V8 optimise path.normalize on a background thread).
  let hiddenPaths: string[] | undefined;
  let readOnlyPaths: string[] | undefined;
  return {
    writablePaths: [...setup.roots, ...allowed],
    get hiddenPaths() {
      hiddenPaths ??= [
        ...setup.hiddenHomes,
        ...credentialPaths(home, choice.visiblePaths.map(expand)),
        ...(linux ? socketDirectories(setup.env) : []),
        ...choice.hiddenPaths.map(expand),
      ];
      return hiddenPaths;
    },
    get readOnlyPaths() {
      readOnlyPaths ??= [
        ...(setup.projectTempDir ? [setup.projectTempDir] : []),
        ...(linux ? runEssentials() : []),
      ];
      return readOnlyPaths;
    },
    protectedRoots: choice.protectControlFiles ? setup.roots : [],
    protectedExempt: allowed,
    hostTempDir: setup.tempDir,
    unixSockets: sockets,
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
