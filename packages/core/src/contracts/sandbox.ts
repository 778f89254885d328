/**
 * The sandbox contract the shell tool sees. A sandbox turns "run `bash -c <command>` in <cwd>"
 * into the argv that runs the same command confined: the filesystem read-only except the
 * workspace, the temp dir and configured paths; kodo's own state hidden; no network unless
 * allowed; its processes gone when kodo goes.
 */

/** The sandbox implementations kodo has. */
export type SandboxKind = 'bwrap' | 'sandbox-exec' | 'pid-namespace';

/** What the confined command may see and touch. All paths absolute. */
export interface SandboxPolicy {
  /** Writable: the workspace roots and configured extra paths. */
  writablePaths: string[];
  /**
   * Replaced by an empty directory (or an empty file): kodo's and Gemini CLI's homes, the user's
   * credentials, the host's socket directories.
   */
  hiddenPaths: string[];
  /** Visible read-only even inside a hidden path (the project temp dir with saved outputs). */
  readOnlyPaths: string[];
  /** Workspace roots whose control files (git hooks and config, agent settings) stay read-only. */
  protectedRoots: string[];
  /** Configured writable paths: control files inside them stay writable. */
  protectedExempt: string[];
  /** The host's temp dir: commands get private, per-session ones in its place (and at /tmp, /var/tmp). */
  hostTempDir: string;
  /**
   * Unix socket paths commands may connect to (`tools.sandbox.allowUnixSockets`). Empty: every
   * `socket(AF_UNIX)` is refused. Listed: they are shown and the refusal is off (seccomp cannot
   * tell one socket path from another).
   */
  unixSockets: string[];
  /** Whether the command may open network sockets. */
  network: boolean;
}

/** A command as the shell tool would spawn it. */
export interface CommandSpec {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export type PreparedCommand =
  | {
      ok: true;
      file: string;
      args: string[];
      env: NodeJS.ProcessEnv;
      /**
       * Descriptors the child gets as fd 3, 4, …; the caller closes them once it has spawned (or
       * failed to). bwrap reads its seccomp filter from one.
       */
      fds?: number[];
      /** False when an automatic sandbox could not start here and the command runs as is. */
      sandboxed: boolean;
      /**
       * Call once the command has ended (with everything it started), or was never spawned: the
       * sandbox then removes what it made in the project for it (empty mount points). Idempotent.
       */
      release?: () => void;
    }
  | { ok: false; message: string };

/** Probing whether the sandbox can start on this machine (user namespaces may be off). */
export type SandboxStatus = { ok: true } | { ok: false; message: string };

export interface CommandSandbox {
  readonly kind: SandboxKind;
  /** Short text for the footer and logs, e.g. `bwrap (no network)`. */
  describe(): string;
  /** What the model is told about where its commands run (a system prompt section). */
  modelNote(): string;
  /** Resolves once the sandbox was tried on this machine (the first call starts the probe). */
  status(): Promise<SandboxStatus>;
  /** The argv and environment that run `spec` inside the sandbox. Never throws. */
  prepare(spec: CommandSpec): Promise<PreparedCommand>;
}
