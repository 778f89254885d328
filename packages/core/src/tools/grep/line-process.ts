import { spawn } from 'node:child_process';

export interface LineProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Longer stdout lines are skipped (default 32 MiB). */
  maxLineBytes?: number;
  /**
   * Called for each stdout line (bytes without the `\n`, valid only during the call: it is a view
   * of the read buffer); `stop` ends the process early. Bytes rather than text let a consumer
   * decode just the fields it needs: decoding whole lines made a search with a hundred thousand
   * matches spend most of its time collecting garbage.
   */
  onLine(line: Buffer): 'more' | 'stop';
}

export interface LineProcessOutcome {
  /** Exit code; null when the process was stopped or died from a signal. */
  code: number | null;
  /** Whether `onLine` asked to stop (the process was killed then). */
  stopped: boolean;
  /** The start of stderr, for error messages. */
  stderr: string;
}

/** Enough of stderr for an error message; a chatty process cannot grow memory without bound. */
const MAX_STDERR_CHARS = 16 * 1024;
/**
 * A longer output line (a match in a huge minified file, as JSON) is dropped rather than held
 * in memory; the tool would cut its text to 2000 characters anyway.
 */
const MAX_LINE_BYTES = 32 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Runs a search process and streams its stdout line by line, so results are handled as they come
 * and the process is killed as soon as enough were seen. An abort kills it too and rejects with
 * the signal's reason; a process that cannot start rejects with the spawn error.
 */
export function runLineProcess(options: LineProcessOptions): Promise<LineProcessOutcome> {
  const { signal } = options;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let settled = false;
    /** The start of a line whose end has not arrived yet. */
    let carry: Buffer[] = [];
    let carryBytes = 0;
    /** The current line grew past maxLineBytes: it is skipped up to its end. */
    let overlong = false;
    let stderr = '';
    const finish = (outcome: { ok: LineProcessOutcome } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if ('ok' in outcome) resolve(outcome.ok);
      else reject(outcome.error);
    };
    const stop = () => {
      child.stdout.removeAllListeners('data');
      child.kill('SIGKILL');
      finish({ ok: { code: null, stopped: true, stderr } });
    };
    const fail = (error: unknown) => {
      child.stdout.removeAllListeners('data');
      child.kill('SIGKILL');
      finish({ error });
    };
    const onAbort = () => fail(signal.reason);
    /** Feeds one line; false when no more are wanted. A throwing handler ends the run. */
    const feed = (line: Buffer): boolean => {
      try {
        if (options.onLine(line) === 'more') return true;
        stop();
      } catch (error) {
        fail(error);
      }
      return false;
    };
    signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      // Only the new chunk is scanned, so a line spread over many chunks costs linear time.
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        let line = chunk.subarray(start, end);
        if (start === 0 && (carryBytes > 0 || overlong)) {
          const dropped = overlong;
          if (!dropped) line = Buffer.concat([...carry, line]);
          carry = [];
          carryBytes = 0;
          overlong = false;
          if (dropped) {
            start = end + 1;
            continue;
          }
        }
        start = end + 1;
        if (!feed(line)) return;
      }
      const rest = chunk.subarray(start);
      carryBytes += rest.length;
      if (overlong || carryBytes > maxLineBytes) {
        carry = [];
        carryBytes = 0;
        overlong = true;
      } else if (rest.length > 0) {
        // A copy: the stream may reuse the chunk's memory.
        carry.push(Buffer.from(rest));
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.slice(0, MAX_STDERR_CHARS - stderr.length);
    });
    child.on('error', (error) => finish({ error }));
    child.on('close', (code) => {
      if (settled) return;
      if (carryBytes > 0 && !overlong && !feed(Buffer.concat(carry))) return;
      finish({ ok: { code, stopped: false, stderr } });
    });
  });
}
