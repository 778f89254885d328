import type { CommandSandbox } from '../contracts/sandbox';
import { closeLaunchFds } from '../tools/shell/launch';
import { terminateGroup } from '../tools/shell/process-group';
import { loadBuiltin } from '../utils/builtin';
import { monotonicMs } from '../utils/clock';

/**
 * Runs one hook command: `bash -c` in the session's directory, as the leader of its own process
 * group, with the event JSON on stdin. At its timeout (or when the session is cancelled) the
 * whole group gets SIGTERM, then SIGKILL 5 s later. The result is returned at once, not after the
 * kill: a hook that ignores SIGTERM must not hold the session for the grace period. Nothing here
 * throws; a hook that cannot start is a result like any other.
 */
export interface HookProcessOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, then EOF. */
  input: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL (default 5 s). */
  killGraceMs?: number;
  /** Runs the command confined, as shell commands are (`tools.sandbox.hooks`). */
  sandbox?: CommandSandbox;
}

export interface HookProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  endedBy: 'exit' | 'timeout' | 'abort' | 'spawn_error';
  error?: Error;
}

export const HOOK_KILL_GRACE_MS = 5_000;
/** Output kept per stream; a hook's answer is a small JSON object, not a log. */
const MAX_CAPTURE_CHARS = 1_000_000;
/** After the shell exits, how long background children may keep the pipes open before we stop. */
const DRAIN_MS = 200;

export async function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  // Loaded on first use: node:child_process is not needed on the way to the first request.
  const { spawn } = loadBuiltin('node:child_process');
  const started = monotonicMs();
  // --norc: Node's stdio pipes are socket pairs, and bash reads ~/.bashrc when its stdin is a
  // socket (it takes that for an rsh login) unless SHLVL says it is nested.
  let command: {
    file: string;
    args: string[];
    env: NodeJS.ProcessEnv;
    fds?: number[];
    release?: () => void;
  } = {
    file: 'bash',
    args: ['--norc', '-c', options.command],
    env: options.env,
  };
  if (options.sandbox) {
    const prepared = await options.sandbox.prepare({ ...command, cwd: options.cwd });
    if (!prepared.ok) return failedStart(new Error(prepared.message), started);
    command = prepared;
  }
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command.file, command.args, {
        cwd: options.cwd,
        env: command.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe', ...(command.fds ?? [])],
      });
    } catch (error) {
      command.release?.();
      resolve(failedStart(error, started));
      return;
    } finally {
      closeLaunchFds(command);
    }
    // The hook's process ended (its sandbox with it): what the sandbox made for it can go. Not
    // when the result is in: a stopped hook is still being killed then.
    if (command.release) {
      child.once('exit', command.release);
      child.once('error', () => {
        if (child.pid === undefined) command.release?.();
      });
    }
    const output = { stdout: '', stderr: '' };
    let endedBy: HookProcessResult['endedBy'] = 'exit';
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: Error | undefined;
    let done = false;
    let drain: NodeJS.Timeout | undefined;

    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(drain);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: output.stdout,
        stderr: output.stderr,
        durationMs: Math.round(monotonicMs() - started),
        endedBy: spawnError ? 'spawn_error' : endedBy,
        ...(spawnError ? { error: spawnError } : {}),
      });
    };
    const stop = (reason: 'timeout' | 'abort') => {
      if (done) return;
      endedBy = reason;
      if (child.pid !== undefined) {
        void terminateGroup(child.pid, options.killGraceMs ?? HOOK_KILL_GRACE_MS);
      }
      finish();
    };
    const onAbort = () => stop('abort');
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);

    for (const name of ['stdout', 'stderr'] as const) {
      child[name]?.setEncoding('utf8');
      child[name]?.on('data', (chunk: string) => {
        if (output[name].length < MAX_CAPTURE_CHARS) output[name] += chunk;
      });
    }
    child.on('error', (error) => {
      spawnError = error;
      if (child.pid === undefined) finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // `cmd &` children inherit the pipes; do not wait for them to close.
      drain = setTimeout(finish, DRAIN_MS);
    });
    child.on('close', finish);

    // A hook that exits without reading stdin closes the pipe: EPIPE is expected, not an error.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);

    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function failedStart(error: unknown, started: number): HookProcessResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    durationMs: Math.round(monotonicMs() - started),
    endedBy: 'spawn_error',
    error: error instanceof Error ? error : new Error(String(error)),
  };
}
