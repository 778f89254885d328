import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AnsiStripper } from '../../utils/terminal-text';
import { closeLaunchFds, type Launch } from './launch';
import { LiveOutput } from './live-output';
import { groupMembers, terminateGroup } from './process-group';

/**
 * Runs one `bash -c` command in its own process group. Its combined output goes, stripped of
 * escape sequences, to a sink (the bounded `OutputCollector`), and raw and throttled to the
 * person's live view. The command is stopped — the whole group — on abort or after too long
 * without output.
 */

/** Where the model's copy of the output goes; `append` returning false pauses the pipes. */
export interface OutputSink {
  append(text: string): boolean;
  onDrain(listener: () => void): void;
}

export type { Launch } from './launch';

export interface RunCommandOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Kill the command after this long without output (0 = never). */
  inactivityTimeoutMs: number;
  sink: OutputSink;
  /** Raw live output, coalesced (see LiveOutput). */
  onOutput?: (chunk: string) => void;
  /** Spawn this instead of `bash -c <command>`: the same command wrapped in the sandbox. */
  launch?: Launch;
  /**
   * Stop the command once it has printed this many characters (0 = never): endless output
   * (`yes`) would otherwise run until the disk or the session's patience runs out.
   */
  maxOutputChars?: number;
  /** Stop the command after this long in all, output or not (0 = never). */
  maxDurationMs?: number;
}

/** The limits the shell tool applies to one foreground command unless told otherwise. */
export const DEFAULT_MAX_OUTPUT_CHARS = 64 * 1024 * 1024;
export const DEFAULT_MAX_DURATION_MS = 2 * 60 * 60 * 1000;

export interface RunCommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Spawn or process error. */
  error?: Error;
  pid?: number;
  /** `output_limit`/`time_limit`: stopped by maxOutputChars/maxDurationMs. */
  endedBy: 'exit' | 'timeout' | 'abort' | 'output_limit' | 'time_limit';
  /** Characters of output received (after escape sequences were removed). */
  outputChars: number;
  /** Processes of the group still running after the command returned (`cmd &`). */
  backgroundPids: number[];
}

/**
 * After the shell exits, how long the pipes may stay quiet before we stop reading: background
 * jobs (`server &`) inherit them and could otherwise keep the call open forever.
 */
const DRAIN_IDLE_MS = 100;
/** …and at most this long in all, even if a background job keeps writing. */
const DRAIN_MAX_MS = 2000;

export function runCommand(options: RunCommandOptions): Promise<RunCommandResult> {
  return new Promise((resolve) => {
    const launch = options.launch ?? { file: 'bash', args: ['-c', options.command] };
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(launch.file, launch.args, {
        cwd: options.cwd,
        env: options.env,
        detached: true, // leader of a new process group
        stdio: ['ignore', 'pipe', 'pipe', ...(launch.fds ?? [])],
      }) as ChildProcessByStdio<null, Readable, Readable>;
    } finally {
      closeLaunchFds(launch);
    }
    const pid = child.pid;
    const live = options.onOutput ? new LiveOutput(options.onOutput) : undefined;
    let endedBy: RunCommandResult['endedBy'] = 'exit';
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: Error | undefined;
    let killing: Promise<void> | undefined;
    let inactivity: NodeJS.Timeout | undefined;
    let drain: NodeJS.Timeout | undefined;
    let drainDeadline: NodeJS.Timeout | undefined;
    let paused = false;
    let finished = false;
    let outputChars = 0;
    const maxOutput = options.maxOutputChars ?? 0;
    const deadline =
      options.maxDurationMs && options.maxDurationMs > 0
        ? setTimeout(() => kill('time_limit'), options.maxDurationMs)
        : undefined;

    const kill = (reason: Exclude<RunCommandResult['endedBy'], 'exit'>) => {
      if (endedBy === 'exit') endedBy = reason;
      if (pid !== undefined) killing ??= terminateGroup(pid);
    };
    const armInactivity = () => {
      clearTimeout(inactivity);
      if (options.inactivityTimeoutMs > 0 && !finished)
        inactivity = setTimeout(() => kill('timeout'), options.inactivityTimeoutMs);
    };
    const armDrain = () => {
      clearTimeout(drain);
      if (exit && !paused) drain = setTimeout(() => void finish(), DRAIN_IDLE_MS);
    };
    const onAbort = () => kill('abort');

    const streams = [child.stdout, child.stderr] as const;
    const pause = () => {
      if (paused) return;
      paused = true;
      clearTimeout(drain);
      for (const stream of streams) stream.pause();
      options.sink.onDrain(() => {
        paused = false;
        if (!finished) for (const stream of streams) stream.resume();
        armDrain();
      });
    };
    const deliver = (text: string) => {
      if (text === '' || endedBy === 'output_limit') return;
      outputChars += text.length;
      if (maxOutput > 0 && outputChars > maxOutput) {
        // What fits is kept; the command is stopped and nothing more is read from it.
        options.sink.append(text.slice(0, text.length - (outputChars - maxOutput)));
        outputChars = maxOutput;
        kill('output_limit');
        return;
      }
      if (!options.sink.append(text)) pause();
    };
    const decoders = streams.map(() => new StringDecoder('utf8'));
    const strippers = streams.map(() => new AnsiStripper());
    streams.forEach((stream, index) => {
      stream.on('data', (chunk: Buffer) => {
        const text = decoders[index]!.write(chunk);
        if (text === '') return;
        live?.push(text);
        deliver(strippers[index]!.push(text));
        armInactivity();
        armDrain();
      });
    });

    const finish = async () => {
      if (finished) return;
      finished = true;
      clearTimeout(inactivity);
      clearTimeout(drain);
      clearTimeout(drainDeadline);
      clearTimeout(deadline);
      options.signal.removeEventListener('abort', onAbort);
      streams.forEach((_, index) => {
        const rest = decoders[index]!.end();
        live?.push(rest);
        deliver(strippers[index]!.push(rest) + strippers[index]!.end());
      });
      live?.flush();
      // Background jobs may still hold the pipes; stop reading so they cannot keep us waiting.
      for (const stream of streams) stream.destroy();
      if (killing) await killing;
      const backgroundPids = pid !== undefined && !killing ? (groupMembers(pid) ?? []) : [];
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        ...(spawnError ? { error: spawnError } : {}),
        ...(pid !== undefined ? { pid } : {}),
        endedBy,
        outputChars,
        backgroundPids,
      });
    };

    child.on('error', (error) => {
      spawnError = error;
      // Without a pid the process never started, so no exit/close event will follow.
      if (pid === undefined) void finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      drainDeadline = setTimeout(() => void finish(), DRAIN_MAX_MS);
      armDrain();
    });
    child.on('close', () => void finish());

    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    armInactivity();
  });
}
