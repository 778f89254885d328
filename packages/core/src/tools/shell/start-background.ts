import { closeSync, mkdirSync, openSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadBuiltin } from '../../utils/builtin';
import { errorMessage } from '../define-tool';
import type { BackgroundJob, BackgroundJobs } from './background-jobs';
import { closeLaunchFds, type Launch } from './launch';

/**
 * Starts a command as a background job: `bash -c` leading its own process group, stdin closed,
 * stdout and stderr written by the child straight to its log file. kodo holds no pipe, so a job
 * that prints a lot costs kodo no memory and does not keep kodo's event loop alive.
 */

export type StartBackgroundResult = { ok: true; job: BackgroundJob } | { ok: false; message: string };

export async function startBackground(options: {
  jobs: BackgroundJobs;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Spawn this instead of `bash -c <command>`: the same command wrapped in the sandbox. */
  launch?: Launch;
}): Promise<StartBackgroundResult> {
  // Loaded on first use: node:child_process is not needed on the way to the first request.
  const { spawn } = loadBuiltin('node:child_process');
  const { jobs } = options;
  if (!jobs.logDir) {
    return {
      ok: false,
      message: 'Background commands are not available: there is no project temp directory.',
    };
  }
  // The log is named after the pid, known only once the process runs: open it under a unique
  // name first and rename it (the child keeps writing to the same file).
  const pending = join(jobs.logDir, `starting-${process.pid}-${Date.now()}-${randomSuffix()}.log`);
  let fd: number;
  try {
    mkdirSync(jobs.logDir, { recursive: true });
    // `wx`: never write through something already at that path (a planted symlink).
    fd = openSync(pending, 'wx', 0o600);
  } catch (error) {
    closeLaunchFds(options.launch);
    options.launch?.release?.();
    return { ok: false, message: `Could not create the background log: ${errorMessage(error)}` };
  }
  let child: ReturnType<typeof spawn>;
  try {
    const launch = options.launch ?? { file: 'bash', args: ['-c', options.command] };
    child = spawn(launch.file, launch.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true, // leader of a new process group
      stdio: ['ignore', fd, fd, ...(launch.fds ?? [])],
    });
  } catch (error) {
    closeSync(fd);
    closeLaunchFds(options.launch);
    options.launch?.release?.();
    removeQuietly(pending);
    return { ok: false, message: errorMessage(error) };
  }
  closeLaunchFds(options.launch);
  // The child has its own copy of the descriptor.
  closeSync(fd);
  const pid = child.pid;
  if (pid === undefined) {
    const error = await new Promise<Error>((resolve) => child.once('error', resolve));
    options.launch?.release?.();
    removeQuietly(pending);
    return { ok: false, message: error.message };
  }
  child.on('error', () => {
    // Reported through the exit status; an unhandled 'error' event would crash kodo.
  });
  // The job ended (its sandbox's PID namespace with it): what the sandbox made for it can go.
  const release = options.launch?.release;
  if (release) child.once('close', release);
  // Not waited for: a job must not keep kodo running; the registry kills it at the end.
  child.unref();
  const logPath = jobs.logPath(pid)!;
  try {
    renameSync(pending, logPath);
  } catch {
    // The job runs; only its log name is off. Track it under the temporary name.
    return { ok: true, job: jobs.track(child, { pid, command: options.command, logPath: pending }) };
  }
  return { ok: true, job: jobs.track(child, { pid, command: options.command, logPath }) };
}

function randomSuffix(): string {
  return Math.floor(Math.random() * 0x100000000)
    .toString(36)
    .padStart(7, '0');
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Nothing to clean up.
  }
}
