import { spawn } from 'node:child_process';
import { sanitizeEnv, stripTerminalControls } from '@kodo/core/engine';

/**
 * A command-backed status line, as Claude Code and Qwen Code have it: settings
 * `statusLine: {"type": "command", "command": "…"}`. The command gets the session's state as
 * JSON on stdin (statusLineInput, Claude Code's field names) and the first line it prints is
 * shown above the footer. It runs in the background — at most once per `minIntervalMs`, the
 * latest state winning, killed after `timeoutMs` — so typing never waits for it. A failure
 * blanks the line; the first one is also reported, once.
 */

export interface StatusLineSetting {
  type: 'command';
  command: string;
  /** Claude Code's left padding in columns (default 0 here). */
  padding?: number;
}

/** `statusLine` (Claude Code's place) or `ui.statusLine` (Qwen Code's), when it is a command. */
export function statusLineSetting(merged: {
  statusLine?: unknown;
  ui?: { statusLine?: unknown };
}): StatusLineSetting | undefined {
  const value = merged.statusLine ?? merged.ui?.statusLine;
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, command, padding } = value as Record<string, unknown>;
  if (type !== 'command' || typeof command !== 'string' || command.trim() === '') return undefined;
  return {
    type: 'command',
    command,
    ...(typeof padding === 'number' && Number.isInteger(padding) && padding >= 0 ? { padding } : {}),
  };
}

export interface StatusLineOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Runs start at most this often (Claude Code: 300 ms). */
  minIntervalMs?: number;
  /** A run still going after this is killed (counts as a failure). */
  timeoutMs?: number;
  clock?: () => number;
}

const MIN_INTERVAL_MS = 300;
const TIMEOUT_MS = 5000;
const MAX_OUTPUT_BYTES = 16 * 1024;

export class StatusLineRunner {
  private text = '';
  private readonly listeners = new Set<() => void>();
  private latest: string | undefined;
  private running = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastStart = Number.NEGATIVE_INFINITY;
  private failed = false;
  private disposed = false;
  private child: ReturnType<typeof spawn> | undefined;
  /** Runs started, for tests and the benchmark. */
  runs = 0;
  private firstFailure: string | undefined;
  private failureListener: ((message: string) => void) | undefined;

  constructor(private readonly options: StatusLineOptions) {}

  /** The line to show ('' for none). */
  current = (): string => this.text;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The session's state changed: run the command with it, now or when the interval allows. */
  update(input: object): void {
    if (this.disposed) return;
    const json = JSON.stringify(input);
    if (json === this.latest && (this.running || this.timer)) return;
    this.latest = json;
    this.schedule();
  }

  /** Told of the first failure only (at once if it already happened). */
  onFirstFailure(listener: (message: string) => void): void {
    this.failureListener = listener;
    if (this.firstFailure !== undefined) listener(this.firstFailure);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.child?.kill('SIGKILL');
  }

  private schedule(): void {
    if (this.running || this.timer) return;
    const clock = this.options.clock ?? Date.now;
    const wait = Math.max(0, this.lastStart + (this.options.minIntervalMs ?? MIN_INTERVAL_MS) - clock());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, wait);
    this.timer.unref?.();
  }

  private async run(): Promise<void> {
    const input = this.latest;
    if (input === undefined || this.disposed) return;
    this.latest = undefined;
    this.running = true;
    this.lastStart = (this.options.clock ?? Date.now)();
    this.runs += 1;
    const result = await this.execute(input);
    this.running = false;
    if (this.disposed) return;
    if ('line' in result) this.show(result.line);
    else {
      this.show('');
      if (!this.failed) {
        this.failed = true;
        this.firstFailure = `Status line command failed: ${result.error} (shown once; the line stays empty while it fails).`;
        this.failureListener?.(this.firstFailure);
      }
    }
    if (this.latest !== undefined) this.schedule();
  }

  private show(line: string): void {
    if (line === this.text) return;
    this.text = line;
    for (const listener of this.listeners) listener();
  }

  private execute(input: string): Promise<{ line: string } | { error: string }> {
    return new Promise((resolve) => {
      const shell = process.platform === 'win32' ? (process.env.ComSpec ?? 'cmd.exe') : '/bin/sh';
      const args =
        process.platform === 'win32'
          ? ['/d', '/s', '/c', this.options.command]
          : ['-c', this.options.command];
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn(shell, args, {
          cwd: this.options.cwd,
          // Without credentials, as hooks get it: the line needs none of the session's keys.
          env: sanitizeEnv(this.options.env),
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: process.platform !== 'win32',
        });
      } catch (error) {
        resolve({ error: (error as Error).message });
        return;
      }
      this.child = child;
      const out: Buffer[] = [];
      let size = 0;
      let stderr = '';
      let settled = false;
      const finish = (value: { line: string } | { error: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout);
        this.child = undefined;
        resolve(value);
      };
      const kill = () => {
        try {
          // The whole group: a script's own children (git, jq) go too.
          if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
          else child.kill('SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const timeoutMs = this.options.timeoutMs ?? TIMEOUT_MS;
      const timeout = setTimeout(() => {
        kill();
        finish({ error: `no answer within ${timeoutMs} ms` });
      }, timeoutMs);
      timeout.unref?.();
      child.stdout?.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_OUTPUT_BYTES) out.push(chunk);
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < 2000) stderr += chunk.toString('utf8');
      });
      child.on('error', (error) => finish({ error: error.message }));
      child.on('close', (code, signal) => {
        if (code !== 0) {
          const said = stderr.trim().split('\n')[0];
          finish({ error: `exit ${code ?? signal}${said ? `: ${said}` : ''}` });
          return;
        }
        finish({ line: firstLine(Buffer.concat(out).toString('utf8')) });
      });
      // A command that does not read its input must not fail the run (EPIPE).
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input);
    });
  }
}

const SGR = /\u001b\[[0-9;]*m/g;

/** The first line, colours (SGR) kept and every other control sequence or character removed. */
export function firstLine(output: string): string {
  const line = output.replace(/\r\n/g, '\n').split('\n')[0] ?? '';
  let clean = '';
  let last = 0;
  for (const match of line.matchAll(SGR)) {
    clean += plain(line.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  clean += plain(line.slice(last));
  // A line that only sets colours shows nothing.
  return clean.replace(SGR, '').trim() === '' ? '' : clean;
}

function plain(text: string): string {
  return stripTerminalControls(text)
    .replace(/\t/g, '    ')
    .replace(/[\r\n]/g, '');
}
