import type { ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandSandbox } from '../../contracts/sandbox';
import type { OutputLimit } from '../output-limit';
import { isGroupAlive, terminateGroup } from './process-group';

/**
 * The commands a session started with `is_background`. Each job leads its own process group and
 * writes straight to `<log dir>/background-<pid>.log`, so kodo holds no pipe to it. The registry
 * remembers what was started (for `list_background_processes` and `read_background_output`, which
 * only serve this session's jobs) and kills every job's whole group when the session ends. As a
 * backstop for front ends that exit without disposing, the groups are also SIGKILLed when the
 * kodo process exits: a detached group would otherwise outlive it.
 *
 * Deliberately free of `node:child_process`: the session creates a registry at startup, and only
 * the shell tool (loaded on first use) spawns.
 */

export type BackgroundJobStatus = 'running' | 'exited' | 'killed';

export interface BackgroundJob {
  pid: number;
  command: string;
  logPath: string;
  status: BackgroundJobStatus;
  exitCode?: number;
  signal?: NodeJS.Signals;
  /** Stopped by kodo because its log outgrew the limit. */
  stoppedForOutput?: boolean;
}

/** A background job whose log passes this is stopped (its output would fill the disk). */
export const MAX_BACKGROUND_LOG_BYTES = 64 * 1024 * 1024;
const LOG_CHECK_MS = 1000;

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** What the shell tools need from the session, beyond the plain tool context. */
export interface ShellServices {
  /** The session's background jobs. */
  readonly jobs: BackgroundJobs;
  /**
   * The cap on what the model reads from one call (`tools.truncateToolOutputThreshold`) and the
   * project temp dir big outputs are saved under. The shell applies it while the command runs,
   * so a huge output is never held in memory; the scheduler then has nothing left to cut.
   */
  readonly outputLimit: OutputLimit;
  /** Confines every command (`tools.sandbox`, `-s`); absent: commands run as they are. */
  readonly sandbox?: CommandSandbox;
  /** Bounds on one foreground command; absent: the defaults of `run-command.ts`. */
  readonly commandLimits?: CommandLimits;
}

/** When a foreground command is stopped however it behaves (see `run-command.ts`). */
export interface CommandLimits {
  /** Characters of output, in all. */
  maxOutputChars: number;
  /** Characters saved to the spill file. */
  maxSavedChars: number;
  /** Wall-clock time. */
  maxDurationMs: number;
}

/** A run's background commands, logging under `<project temp dir>/background-processes` (none without one). */
export function backgroundJobsIn(tempDir: string | undefined): BackgroundJobs {
  return new BackgroundJobs({ logDir: tempDir ? join(tempDir, 'background-processes') : undefined });
}

export class BackgroundJobs {
  /** Where logs go (`<project temp dir>/background-processes`); undefined: backgrounding is off. */
  readonly logDir: string | undefined;
  private readonly jobs = new Map<number, BackgroundJob>();
  private exitHookInstalled = false;
  private readonly killAllNow = () => {
    for (const job of this.jobs.values()) {
      if (!isGroupAlive(job.pid)) continue;
      try {
        process.kill(-job.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };

  /** A job's log past this many bytes gets the job stopped: its output would fill the disk. */
  private readonly maxLogBytes: number;
  private readonly logCheckMs: number;

  constructor(options: { logDir: string | undefined; maxLogBytes?: number; logCheckMs?: number }) {
    this.logDir = options.logDir;
    this.maxLogBytes = options.maxLogBytes ?? MAX_BACKGROUND_LOG_BYTES;
    this.logCheckMs = options.logCheckMs ?? LOG_CHECK_MS;
  }

  /** `<log dir>/background-<pid>.log`. */
  logPath(pid: number): string | undefined {
    return this.logDir ? join(this.logDir, `background-${pid}.log`) : undefined;
  }

  /** Registers a started job; its status follows the child's exit. */
  track(child: ChildProcess, job: { pid: number; command: string; logPath: string }): BackgroundJob {
    const entry: BackgroundJob = { ...job, status: 'running' };
    this.jobs.set(job.pid, entry);
    // The child writes its log itself (kodo holds no pipe), so its size is watched instead.
    const watch = setInterval(() => {
      const size = fileSize(job.logPath);
      if (size === undefined || size <= this.maxLogBytes) return;
      clearInterval(watch);
      entry.stoppedForOutput = true;
      void terminateGroup(job.pid).catch(() => undefined);
    }, this.logCheckMs);
    watch.unref();
    child.once('exit', (code, signal) => {
      clearInterval(watch);
      if (signal) {
        entry.status = 'killed';
        entry.signal = signal;
      } else {
        entry.status = 'exited';
        entry.exitCode = code ?? 0;
      }
    });
    if (!this.exitHookInstalled) {
      this.exitHookInstalled = true;
      process.on('exit', this.killAllNow);
    }
    return entry;
  }

  get(pid: number): BackgroundJob | undefined {
    const job = this.jobs.get(pid);
    return job ? { ...job } : undefined;
  }

  /** Every job of the session, oldest first. */
  list(): BackgroundJob[] {
    return [...this.jobs.values()].map((job) => ({ ...job }));
  }

  /**
   * Stops every job: SIGTERM to each group, SIGKILL to what is left after the grace period.
   * Groups whose leader exited are signalled too — `server &` leaves its children behind.
   */
  async dispose(): Promise<void> {
    const alive = [...this.jobs.values()].filter((job) => isGroupAlive(job.pid));
    await Promise.all(alive.map((job) => terminateGroup(job.pid)));
    if (this.exitHookInstalled) {
      process.off('exit', this.killAllNow);
      this.exitHookInstalled = false;
    }
  }
}
