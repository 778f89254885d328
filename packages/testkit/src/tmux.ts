import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

  /**
   * Kills the session and its private server, and returns once the programs that ran in the pane
   * have ended (at most 5 s): a program still exiting (kodo writes Node's compile cache as it
   * exits) would otherwise write into folders the test is removing. Safe to call twice.
   */
  kill(): void {
    if (this.closed) return;
    this.closed = true;
    let programs: number[] = [];
    try {
      programs = descendantsOf(this.panePid());
    } catch {
      // The server is gone already (the pane's shell ended): nothing is left to wait for.
    }
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    const deadline = Date.now() + 5_000;
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    while (programs.some(isRunning) && Date.now() < deadline) Atomics.wait(sleeper, 0, 0, 20);
  }

  private tmux(args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }
}

/** The pid and every descendant of `root`, from one `ps` listing. */
function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' }).split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!pid || ppid === undefined || Number.isNaN(ppid)) continue;
    const siblings = children.get(ppid);
    if (siblings) siblings.push(pid);
    else children.set(ppid, [pid]);
  }
  const found = [root];
  for (let index = 0; index < found.length; index += 1) found.push(...(children.get(found[index]!) ?? []));
  return found;
}

/**
 * Whether a process with this pid still runs. A zombie has ended: its parent (the pane's shell,
 * gone with the server) is not there to reap it, and init may take a while.
 */
function isRunning(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One word for `sh`, whatever it holds. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
