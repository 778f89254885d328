import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { groupMembers, terminateGroup } from './process-group';

/**
 * Runs one `bash -c` command in its own process group and collects its combined output.
 * Memory stays bounded: only the last `maxOutputChars` characters are kept (the rest is counted).
 */

export interface RunCommandOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Kill the command after this long without output (0 = never). */
  inactivityTimeoutMs: number;
  maxOutputChars: number;
  onOutput?: (chunk: string) => void;
}

export interface RunCommandResult {
  /** The last `maxOutputChars` characters of stdout+stderr, in arrival order. */
  output: string;
  /** Characters dropped from the front of the output. */
  omittedChars: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Spawn or process error. */
  error?: Error;
  pid?: number;
  endedBy: 'exit' | 'timeout' | 'abort';
  /** Processes of the group still running after the command returned (`cmd &`). */
  backgroundPids: number[];
}

/** After the shell exits, how long to wait for the pipes to drain (background jobs may hold them). */
const DRAIN_MS = 100;

export function runCommand(options: RunCommandOptions): Promise<RunCommandResult> {
  return new Promise((resolve) => {
    const tail = new TailBuffer(options.maxOutputChars);
    const child = spawn('bash', ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true, // leader of a new process group
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    let endedBy: RunCommandResult['endedBy'] = 'exit';
    let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    let spawnError: Error | undefined;
    let killing: Promise<void> | undefined;
    let inactivity: NodeJS.Timeout | undefined;
    let drain: NodeJS.Timeout | undefined;
    let finished = false;

    const kill = (reason: 'timeout' | 'abort') => {
      if (endedBy === 'exit') endedBy = reason;
      if (pid !== undefined) killing ??= terminateGroup(pid);
    };
    const armInactivity = () => {
      clearTimeout(inactivity);
      if (options.inactivityTimeoutMs > 0)
        inactivity = setTimeout(() => kill('timeout'), options.inactivityTimeoutMs);
    };
    const onAbort = () => kill('abort');

    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const;
    const onData = (decoder: StringDecoder) => (chunk: Buffer) => {
      const text = decoder.write(chunk);
      if (text === '') return;
      tail.append(text);
      options.onOutput?.(text);
      armInactivity();
    };
    child.stdout.on('data', onData(decoders[0]));
    child.stderr.on('data', onData(decoders[1]));

    const finish = async () => {
      if (finished) return;
      finished = true;
      clearTimeout(inactivity);
      clearTimeout(drain);
      options.signal.removeEventListener('abort', onAbort);
      for (const decoder of decoders) tail.append(decoder.end());
      // Background jobs may still hold the pipes; stop reading so they cannot keep us waiting.
      child.stdout.destroy();
      child.stderr.destroy();
      if (killing) await killing;
      const backgroundPids = pid !== undefined && !killing ? (groupMembers(pid) ?? []) : [];
      resolve({
        output: tail.text(),
        omittedChars: tail.omitted,
        exitCode: exit.code,
        signal: exit.signal,
        ...(spawnError ? { error: spawnError } : {}),
        ...(pid !== undefined ? { pid } : {}),
        endedBy,
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
      drain = setTimeout(() => void finish(), DRAIN_MS);
    });
    child.on('close', () => void finish());

    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    armInactivity();
  });
}

/** Keeps the last `limit` characters of a stream, compacting now and then instead of per chunk. */
export class TailBuffer {
  private chunks: string[] = [];
  private length = 0;
  omitted = 0;

  constructor(private readonly limit: number) {}

  append(text: string): void {
    if (text === '') return;
    this.chunks.push(text);
    this.length += text.length;
    if (this.length > this.limit * 2) this.compact();
  }

  text(): string {
    this.compact();
    return this.chunks[0] ?? '';
  }

  private compact(): void {
    let joined = this.chunks.join('');
    if (joined.length > this.limit) {
      this.omitted += joined.length - this.limit;
      joined = joined.slice(joined.length - this.limit);
    }
    this.chunks = joined === '' ? [] : [joined];
    this.length = joined.length;
  }
}
