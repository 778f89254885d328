import { execFileSync, spawnSync } from 'node:child_process';

/** True when a `tmux` binary is on the PATH (the real-terminal tests skip without it). */
export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

export interface TmuxSessionOptions {
  /** The shell command to run in the session's only pane. */
  command: string;
  cwd: string;
  /** The environment of the command, exactly (nothing leaks from the test process). */
  env: Record<string, string>;
  columns?: number;
  rows?: number;
}

/**
 * A program running in a real terminal: a detached tmux session of a fixed size on a private
 * tmux server (its own socket, so tests never touch a developer's tmux), driven with send-keys
 * and read with capture-pane.
 */
export class TmuxSession {
  private readonly socket: string;
  private readonly name = 'kodo-test';
  private closed = false;

  constructor(options: TmuxSessionOptions) {
    this.socket = `kodo-test-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    this.tmux([
      'new-session',
      '-d',
      '-s',
      this.name,
      '-x',
      String(options.columns ?? 100),
      '-y',
      String(options.rows ?? 30),
      '-c',
      options.cwd,
      // `env -i` so the pane sees only the given variables, not the tmux server's.
      // The pane stays open after the program exits, so its last screen can still be read.
      `env -i ${Object.entries(options.env)
        .map(([key, value]) => `${key}=${shellQuote(value)}`)
        .join(' ')} ${options.command}; echo "[exited $?]"; sleep 600`,
    ]);
  }

  /** Types text literally (no key names). */
  type(text: string): void {
    this.tmux(['send-keys', '-t', this.name, '-l', text]);
  }

  /** Presses keys by tmux name: `Enter`, `Escape`, `C-c`, `Up`… */
  press(...keys: string[]): void {
    this.tmux(['send-keys', '-t', this.name, ...keys]);
  }

  /** The visible screen as text (trailing spaces trimmed). */
  capture(): string {
    return this.tmux(['capture-pane', '-p', '-t', this.name]);
  }

  /** The whole pane: its scrollback history followed by the visible screen. */
  captureHistory(): string {
    return this.tmux(['capture-pane', '-p', '-S', '-', '-t', this.name]);
  }

  /**
   * Appends every byte the program writes to the terminal from now on to `file` (tmux
   * pipe-pane), so a test can check the escape sequences themselves, not only the screen.
   */
  recordOutput(file: string): void {
    this.tmux(['pipe-pane', '-o', '-t', this.name, `cat >> ${shellQuote(file)}`]);
  }

  /** Polls the screen until `match` is found; throws with the last screen after `timeoutMs`. */
  async waitFor(match: string | RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = this.capture();
      if (typeof match === 'string' ? screen.includes(match) : match.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Timed out after ${timeoutMs} ms waiting for ${String(match)}. Screen:\n${screen}`);
  }

  /** The pid of the program in the pane (the shell tmux started). */
  panePid(): number {
    return Number(this.tmux(['display-message', '-p', '-t', this.name, '#{pane_pid}']).trim());
  }

  /** Kills the session and its private server. Safe to call twice. */
  kill(): void {
    if (this.closed) return;
    this.closed = true;
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
  }

  private tmux(args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }
}

/** One word for `sh`, whatever it holds. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
