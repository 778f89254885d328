import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ControlPath } from './control-files';

/**
 * What a bwrap sandbox keeps on the host for one session: a private directory (mode 0700) whose
 * subdirectories are the commands' `/tmp`, `/var/tmp` and host temp dir, so files persist from
 * one command to the next but nothing of the host's temp dirs is visible; the compiled seccomp
 * filter; and the empty control files created as mount points. The mount points live only while
 * a command that needs them runs (they are the project's paths: nobody asked for them); the rest
 * is removed when the kodo process exits.
 */
/** Sessions with files on the host; one exit listener removes them all. */
const live = new Set<SessionFiles>();
function disposeAll(): void {
  for (const files of [...live]) files.dispose();
}

export class SessionFiles {
  private root: string | undefined;
  /** Mount points this session made, with the number of running commands that use each. */
  private readonly mountPoints = new Map<string, { kind: ControlPath['kind']; users: number }>();
  private readonly temps = new Map<number, string>();

  constructor(
    private readonly options: {
      /** Where the session directory is made (the host's temp dir). */
      parent: string;
      /**
       * Builds the filter program, written once when the directory is made; absent: no filter.
       * A function, so a session that never runs a command never compiles the filter.
       */
      seccomp?: () => Buffer;
    },
  ) {}

  /** The session directory, created on first use. */
  dir(): string {
    if (this.root) return this.root;
    mkdirSync(this.options.parent, { recursive: true });
    const root = mkdtempSync(join(this.options.parent, 'kodo-sandbox-'));
    if (this.options.seccomp)
      writeFileSync(join(root, 'seccomp.bpf'), this.options.seccomp(), { mode: 0o600 });
    live.add(this);
    if (live.size === 1) process.on('exit', disposeAll);
    this.root = root;
    return root;
  }

  /** The private directory standing in for temp dir number `index` (created empty). */
  tempDir(index: number): string {
    const made = this.temps.get(index);
    if (made) return made;
    const path = join(this.dir(), `tmp-${index}`);
    mkdirSync(path, { recursive: true });
    // Like the real /tmp: anyone may create files, only the owner remove them.
    chmodSync(path, 0o1777);
    this.temps.set(index, path);
    return path;
  }

  /** A fresh descriptor on the filter (bwrap reads it to the end, so one per command); absent without a filter. */
  openSeccomp(): number | undefined {
    if (!this.options.seccomp) return undefined;
    return openSync(join(this.dir(), 'seccomp.bpf'), 'r');
  }

  /** Whether `path` is an empty mount point this session made for a command still running. */
  isMountPoint(path: string): boolean {
    return this.mountPoints.has(path);
  }

  /**
   * Takes a control path as a mount point for one command: a missing one is created empty, one
   * made for another command still running is shared. False when it is neither (it exists on
   * its own, or cannot be created). Each true is matched by one `releaseMountPoint`.
   */
  acquireMountPoint(path: ControlPath): boolean {
    const ours = this.mountPoints.get(path.path);
    if (ours) {
      ours.users += 1;
      return true;
    }
    if (!path.missing) return false;
    try {
      if (path.kind === 'dir') mkdirSync(path.path, { recursive: false });
      else closeSync(openSync(path.path, 'wx', 0o644));
    } catch {
      return false;
    }
    this.dir();
    this.mountPoints.set(path.path, { kind: path.kind, users: 1 });
    return true;
  }

  /**
   * A command that used the mount point ended (with every process it started: bwrap's PID
   * namespace). The last user removes it while still empty. Never earlier: removing a mount point
   * on the host unmounts it inside a sandbox still running, which could then create the path.
   */
  releaseMountPoint(path: string): void {
    const ours = this.mountPoints.get(path);
    if (!ours) return;
    ours.users -= 1;
    if (ours.users > 0) return;
    this.mountPoints.delete(path);
    removeIfEmpty(path, ours.kind);
  }

  /** Removes the session directory and the mount points that are still empty. */
  dispose(): void {
    for (const [path, { kind }] of [...this.mountPoints].reverse()) removeIfEmpty(path, kind);
    this.mountPoints.clear();
    if (this.root) rmSync(this.root, { recursive: true, force: true });
    this.root = undefined;
    this.temps.clear();
    live.delete(this);
    if (live.size === 0) process.off('exit', disposeAll);
  }
}

/** Removes a mount point kodo made, if it is still empty (changed or gone meanwhile: left alone). */
function removeIfEmpty(path: string, kind: ControlPath['kind']): void {
  try {
    if (kind === 'dir' && readdirSync(path).length === 0) rmdirSync(path);
    else if (kind === 'file' && statSync(path).size === 0) unlinkSync(path);
  } catch {
    // Changed or gone meanwhile: leave it.
  }
}
