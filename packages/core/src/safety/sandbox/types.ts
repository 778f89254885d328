/**
 * The sandbox contract the shell tool sees. A sandbox turns "run `bash -c <command>` in <cwd>"
 * into the argv that runs the same command confined: the filesystem read-only except the
 * workspace, the temp dir and configured paths; kodo's own state hidden; no network unless
 * allowed; its processes gone when kodo goes.
 */

/** The sandbox implementations kodo has. */
export type SandboxKind = 'bwrap' | 'sandbox-exec';

/** What the confined command may see and touch. All paths absolute. */
export interface SandboxPolicy {
  /** Writable: the workspace roots, the temp dir, configured extra paths. */
  writablePaths: string[];
  /** Replaced by an empty directory: kodo's and Gemini CLI's homes (keys, history, trust file). */
  hiddenPaths: string[];
  /** Visible read-only even inside a hidden path (the project temp dir with saved outputs). */
  readOnlyPaths: string[];
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
      /** False when an automatic sandbox could not start here and the command runs as is. */
      sandboxed: boolean;
    }
  | { ok: false; message: string };

/** Probing whether the sandbox can start on this machine (user namespaces may be off). */
export type SandboxStatus = { ok: true } | { ok: false; message: string };

export interface CommandSandbox {
  readonly kind: SandboxKind;
  /** Short text for the footer and logs, e.g. `bwrap (no network)`. */
  describe(): string;
  /** Resolves once the sandbox was tried on this machine (the first call starts the probe). */
  status(): Promise<SandboxStatus>;
  /** The argv and environment that run `spec` inside the sandbox. Never throws. */
  prepare(spec: CommandSpec): Promise<PreparedCommand>;
}
