// The UI benchmark's terminal: a command in a real pseudo-terminal (util-linux `script`), the bytes
// it writes timed on arrival, and, when asked, a headless xterm fed the same bytes so a screen can
// be read whatever the renderer (cell-diffing renderers such as Claude Code's and Codex's write only
// the changed cells, so their text is seldom contiguous in the bytes). The emulator also answers the
// terminal queries (device attributes, cursor position) a real terminal answers.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import xtermHeadless from '@xterm/headless';

export interface Terminal {
  child: ChildProcess;
  output: () => string;
  /** performance.now() when `text` first appears in the bytes at or after offset `from`. */
  waitFor(text: string, from?: number, timeoutMs?: number): Promise<{ at: number; offset: number }>;
  /**
   * performance.now() when the bytes that made `test(screen rows)` true arrived (emulated terminals
   * only); `offset` is the output length after those bytes.
   */
  waitForScreen(
    test: (rows: string[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<{ at: number; offset: number }>;
  /** The visible rows of the emulated screen, right-trimmed. */
  screen(): string[];
  type(keys: string): void;
  close(): Promise<void>;
}

export interface TerminalOptions {
  columns?: number;
  rows?: number;
  cwd?: string;
  /** Feed a headless xterm (for waitForScreen and screen) and let it answer terminal queries. */
  emulate?: boolean;
}

/** What the last terminal received, for error reports. */
export let lastOutput = () => '';

type ScreenWaiter = {
  test: (rows: string[]) => boolean;
  resolve: (v: { at: number; offset: number }) => void;
};

export function openTerminal(command: string, env: Record<string, string>, options: TerminalOptions = {}) {
  const { columns = 100, rows = 30, cwd, emulate = false } = options;
  const child = spawn(
    'script',
    ['-qfec', `stty cols ${columns} rows ${rows}; exec ${command}`, '/dev/null'],
    {
      env,
      cwd,
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  let output = '';
  const waiters: { text: string; from: number; resolve: (v: { at: number; offset: number }) => void }[] = [];
  const screenWaiters: ScreenWaiter[] = [];
  const emulator = emulate
    ? new xtermHeadless.Terminal({ cols: columns, rows, scrollback: 0, allowProposedApi: true })
    : undefined;
  // A real terminal answers the queries; the answers go back to the program as input would.
  emulator?.onData((answer) => {
    if (child.stdin?.writable) child.stdin.write(answer);
  });
  const screen = () => {
    if (!emulator) throw new Error('screen() needs an emulated terminal');
    const buffer = emulator.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < emulator.rows; row += 1)
      lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    return lines;
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const at = performance.now();
    output += chunk;
    const offset = output.length;
    for (const waiter of [...waiters]) {
      const found = output.indexOf(waiter.text, waiter.from);
      if (found !== -1) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve({ at, offset: found });
      }
    }
    // The callback runs once xterm has parsed this chunk: the screen is then as a terminal shows it.
    emulator?.write(chunk, () => {
      if (screenWaiters.length === 0) return;
      const rows = screen();
      for (const waiter of [...screenWaiters]) {
        if (waiter.test(rows)) {
          screenWaiters.splice(screenWaiters.indexOf(waiter), 1);
          waiter.resolve({ at, offset });
        }
      }
    });
  });
  lastOutput = () => output;
  const timeout = (what: string, ms: number, reject: (error: Error) => void) =>
    setTimeout(() => {
      const shown = emulator ? `; screen:\n${screen().join('\n')}` : '';
      reject(
        new Error(`timed out waiting for ${what}; last bytes: ${JSON.stringify(output.slice(-600))}${shown}`),
      );
    }, ms);
  const terminal: Terminal = {
    child,
    output: () => output,
    waitFor(text, from = 0, timeoutMs = 15_000) {
      const offset = output.indexOf(text, from);
      if (offset !== -1) return Promise.resolve({ at: performance.now(), offset });
      return new Promise((resolve, reject) => {
        const timer = timeout(JSON.stringify(text), timeoutMs, reject);
        waiters.push({
          text,
          from,
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
        });
      });
    },
    waitForScreen(test, what, timeoutMs = 15_000) {
      if (!emulator) throw new Error('waitForScreen() needs an emulated terminal');
      return new Promise((resolve, reject) => {
        const timer = timeout(what, timeoutMs, reject);
        const waiter: ScreenWaiter = {
          test,
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
        };
        // Checked now too: what is awaited may already be on the screen.
        emulator.write('', () => {
          if (test(screen())) waiter.resolve({ at: performance.now(), offset: output.length });
          else screenWaiters.push(waiter);
        });
      });
    },
    screen,
    type(keys) {
      child.stdin!.write(keys);
    },
    async close() {
      // Killing `script` does not end programs that outlive a hang-up: end the whole tree we started.
      const tree = child.pid ? processTree(child.pid).slice(1) : [];
      child.kill('SIGKILL');
      for (const pid of tree) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((r) => child.on('close', r));
      emulator?.dispose();
    },
  };
  return terminal;
}

/** The program under `script` (it `exec`s the command, so it is script's only child). */
export function childPid(parent: number): number | undefined {
  return children(parent)[0];
}

function children(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

/** `pid` and every process below it, as they are now. */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) tree.push(...children(tree[index]!));
  return tree;
}

/**
 * User + system CPU seconds of a process tree so far: each live process's own time plus what its
 * children that already ended used (`cutime`, `cstime`), so a helper that comes and goes between
 * two readings still counts.
 */
export function treeCpuSeconds(root: number | undefined): number {
  if (!root) return Number.NaN;
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // utime, stime, cutime, cstime are fields 14-17 of stat; after the command name, indexes 11-14.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Ended between the listing and the read.
    }
  }
  return ticks / 100;
}

/** Peak RSS of a process tree: the sum of each live process's own peak (`VmHWM`). */
export function treePeakRssMb(root: number | undefined): number | undefined {
  if (!root) return undefined;
  let kb = 0;
  for (const pid of processTree(root)) {
    try {
      kb += Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Ended between the listing and the read.
    }
  }
  return kb > 0 ? kb / 1024 : undefined;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
