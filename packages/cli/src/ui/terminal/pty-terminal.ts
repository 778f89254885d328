import { readlinkSync } from 'node:fs';
import { constants } from 'node:os';
import {
  AnsiStripper,
  closeLaunchFds,
  groupMembers,
  type Launch,
  type PseudoTerminal,
  type PseudoTerminalRun,
  type RunCommandResult,
  terminateGroup,
} from '@kodo/core/engine';
import { loadPtyBackend, type PtyBackend, type PtyProcess, type ScreenEmulator } from './pty-backend';
import type { TerminalScreen, TerminalScreens } from './terminal-screens';

/**
 * The interactive UI's shell: every foreground command runs in a pseudo-terminal, so programs
 * that need one (`git rebase -i`, a REPL, `read -p`) work, and its screen is emulated for the
 * tool box. Same limits and cleanup as the pipes (`run-command.ts`): the whole process group is
 * stopped on abort, inactivity, too much output or too long a run.
 */

export interface PtyTerminalOptions {
  screens: TerminalScreens;
  /** The UI's size now; the terminal gets the tool box's width and a few rows less than the screen. */
  size(): { columns: number; rows: number };
  /** Replaces the real libraries (tests). */
  load?: () => Promise<{ backend: PtyBackend } | { error: string }>;
  /** Told once when no terminal can be opened (commands then use pipes). */
  onUnavailable?(reason: string): void;
}

/** The screen is redrawn at most this often while a command prints. */
const SCREEN_THROTTLE_MS = 50;
/**
 * After the command exits, output still in flight is awaited until none has come for this long
 * (at most DRAIN_MAX_MS): the exit can be reported before the last output is read.
 */
const DRAIN_MS = 50;
const DRAIN_MAX_MS = 2000;
/** Columns the tool box takes around its content (border and padding). */
const BOX_CHROME_COLUMNS = 4;

export function terminalSize(ui: { columns: number; rows: number }): { columns: number; rows: number } {
  return {
    columns: Math.max(20, ui.columns - BOX_CHROME_COLUMNS),
    rows: Math.max(5, Math.min(24, ui.rows - 14)),
  };
}

export class PtyTerminal implements PseudoTerminal {
  private backend: Promise<PtyBackend | undefined> | undefined;
  private anonymous = 0;

  constructor(private readonly options: PtyTerminalOptions) {}

  async run(run: PseudoTerminalRun): Promise<RunCommandResult | undefined> {
    const backend = await this.loadBackend();
    if (!backend) return undefined;
    const launch = withInheritedFds(run.launch);
    if ('error' in launch) {
      closeLaunchFds(run.launch);
      return failedToStart(new Error(launch.error));
    }
    const id = run.callId ?? `terminal-${++this.anonymous}`;
    return runInPty(
      backend,
      { ...run, launch },
      { id, screens: this.options.screens, size: this.options.size() },
    );
  }

  private loadBackend(): Promise<PtyBackend | undefined> {
    this.backend ??= (this.options.load ?? loadPtyBackend)().then((loaded) => {
      if ('backend' in loaded) return loaded.backend;
      this.options.onUnavailable?.(loaded.error);
      return undefined;
    });
    return this.backend;
  }
}

function failedToStart(error: Error): RunCommandResult {
  return { exitCode: null, signal: null, error, endedBy: 'exit', outputChars: 0, backgroundPids: [] };
}

/**
 * A pseudo-terminal hands the child only its three standard descriptors; the sandbox's extra ones
 * (its seccomp filter, expected as fd 3, 4, …) are reopened by path in a small `sh` in front of
 * it. The descriptors themselves are closed once the child has started.
 */
export function withInheritedFds(launch: Launch): (Launch & { opened: number[] }) | { error: string } {
  const fds = launch.fds ?? [];
  if (fds.length === 0) return { file: launch.file, args: launch.args, opened: [] };
  const paths: string[] = [];
  for (const fd of fds) {
    let path: string;
    try {
      path = readlinkSync(`/proc/self/fd/${fd}`);
    } catch (error) {
      return {
        error: `Command not run: the sandbox's descriptor ${fd} cannot be reopened (${(error as Error).message}).`,
      };
    }
    if (!path.startsWith('/') || path.endsWith(' (deleted)')) {
      return { error: `Command not run: the sandbox's descriptor ${fd} is not a file that can be reopened.` };
    }
    paths.push(path);
  }
  const opens = paths.map((_, index) => `exec ${3 + index}<"$${index + 1}" || exit 126`).join('; ');
  const script = `${opens}; shift ${paths.length}; exec "$@"`;
  return { file: '/bin/sh', args: ['-c', script, 'sh', ...paths, launch.file, ...launch.args], opened: fds };
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

function runInPty(
  backend: PtyBackend,
  run: PseudoTerminalRun & { launch: Launch & { opened: number[] } },
  view: { id: string; screens: TerminalScreens; size: { columns: number; rows: number } },
): Promise<RunCommandResult> {
  return new Promise((resolve) => {
    const size = terminalSize(view.size);
    let child: PtyProcess;
    try {
      child = backend.spawn(run.launch.file, run.launch.args, {
        cols: size.columns,
        rows: size.rows,
        cwd: run.cwd,
        env: run.env,
      });
    } catch (error) {
      resolve(failedToStart(error as Error));
      return;
    } finally {
      closeLaunchFds({ file: run.launch.file, args: [], fds: run.launch.opened });
    }
    const pid = child.pid;
    const screen = backend.screen(size);
    const stripper = new AnsiStripper();
    const folder = new RedrawFolder();
    let endedBy: RunCommandResult['endedBy'] = 'exit';
    let killing: Promise<void> | undefined;
    let outputChars = 0;
    let finished = false;
    let paused = false;
    let inactivity: NodeJS.Timeout | undefined;
    let redraw: NodeJS.Timeout | undefined;
    const deadline =
      run.maxDurationMs > 0 ? setTimeout(() => kill('time_limit'), run.maxDurationMs) : undefined;

    const kill = (reason: Exclude<RunCommandResult['endedBy'], 'exit'>) => {
      if (endedBy === 'exit') endedBy = reason;
      killing ??= terminateGroup(pid);
    };
    const armInactivity = () => {
      clearTimeout(inactivity);
      if (run.inactivityTimeoutMs > 0 && !finished)
        inactivity = setTimeout(() => kill('timeout'), run.inactivityTimeoutMs);
    };
    const publishScreen = () => {
      redraw = undefined;
      if (!finished) view.screens.setScreen(view.id, readScreen(screen));
    };
    const scheduleRedraw = () => {
      redraw ??= setTimeout(publishScreen, SCREEN_THROTTLE_MS);
    };
    const deliver = (text: string) => {
      if (text === '' || endedBy === 'output_limit') return;
      outputChars += text.length;
      if (run.maxOutputChars > 0 && outputChars > run.maxOutputChars) {
        run.sink.append(text.slice(0, text.length - (outputChars - run.maxOutputChars)));
        outputChars = run.maxOutputChars;
        kill('output_limit');
        return;
      }
      if (!run.sink.append(text) && !paused) {
        paused = true;
        child.pause();
        run.sink.onDrain(() => {
          paused = false;
          if (!finished) child.resume();
        });
      }
    };

    view.screens.add(view.id, {
      write: (data) => {
        child.write(data);
        // Someone typing into the command is activity, even if it prints nothing back.
        armInactivity();
      },
      resize: (columns, rows) => {
        const next = terminalSize({ columns, rows });
        try {
          child.resize(next.columns, next.rows);
          screen.resize(next.columns, next.rows);
        } catch {
          // The command just ended.
        }
      },
    });

    /** Output chunks received so far (the drain after exit waits for them to stop). */
    let chunks = 0;
    const dataSubscription = child.onData((data) => {
      chunks += 1;
      screen.write(data, scheduleRedraw);
      deliver(folder.push(stripper.push(data)));
      armInactivity();
    });

    const onAbort = () => kill('abort');
    const finish = async (exit: { exitCode: number; signal?: number }) => {
      if (finished) return;
      finished = true;
      clearTimeout(inactivity);
      clearTimeout(redraw);
      clearTimeout(deadline);
      run.signal.removeEventListener('abort', onAbort);
      deliver(folder.push(stripper.end()) + folder.end());
      dataSubscription.dispose();
      view.screens.remove(view.id);
      screen.dispose();
      if (killing) await killing;
      const backgroundPids = !killing ? (groupMembers(pid) ?? []) : [];
      const signal = exit.signal ? (SIGNAL_NAMES.get(exit.signal) ?? null) : null;
      resolve({
        exitCode: signal ? null : exit.exitCode,
        signal,
        pid,
        endedBy,
        outputChars,
        backgroundPids,
      });
    };
    child.onExit((exit) => {
      const exitedAt = Date.now();
      let seen = chunks;
      // A timer runs before the event loop polls for input, so after a busy spell it could fire
      // with the last output still unread: each check first lets pending reads land
      // (setImmediate runs after the poll), and waits again while output keeps coming.
      const drain = () =>
        setImmediate(() => {
          if (chunks !== seen && Date.now() - exitedAt < DRAIN_MAX_MS) {
            seen = chunks;
            setTimeout(drain, DRAIN_MS);
          } else void finish(exit);
        });
      setTimeout(drain, DRAIN_MS);
    });
    if (run.signal.aborted) onAbort();
    else run.signal.addEventListener('abort', onAbort, { once: true });
    armInactivity();
  });
}

/**
 * The model reads lines as pipes would give them: CR LF becomes LF, and a line redrawn with
 * carriage returns (a progress bar, a spinner) only as it was last drawn, not every frame of it.
 */
export class RedrawFolder {
  private line = '';

  push(text: string): string {
    const lines = (this.line + text.replace(/\r+\n/g, '\n')).split('\n');
    this.line = lines.pop() ?? '';
    // A line that never ends is passed on in pieces, so it cannot grow without bound.
    if (this.line.length > MAX_HELD_LINE_CHARS) {
      lines.push(lastDrawn(this.line));
      this.line = '';
      return lines.map(lastDrawn).join('\n');
    }
    return lines.length === 0 ? '' : `${lines.map(lastDrawn).join('\n')}\n`;
  }

  end(): string {
    const rest = lastDrawn(this.line);
    this.line = '';
    return rest;
  }
}

const MAX_HELD_LINE_CHARS = 64 * 1024;

/** What is left of a line after carriage returns: the last frame, over what it did not cover. */
function lastDrawn(line: string): string {
  if (!line.includes('\r')) return line;
  let shown = '';
  for (const frame of line.split('\r')) shown = frame + shown.slice(frame.length);
  return shown;
}

/** The visible rows of the emulated screen, trailing blank rows dropped, and the cursor. */
export function readScreen(screen: ScreenEmulator): TerminalScreen {
  const buffer = screen.buffer.active;
  const lines: string[] = [];
  for (let row = 0; row < screen.rows; row += 1) {
    lines.push(buffer.getLine(buffer.baseY + row)?.translateToString(true) ?? '');
  }
  const cursor = { row: buffer.cursorY, column: buffer.cursorX };
  let last = lines.length;
  while (last > cursor.row + 1 && lines[last - 1] === '') last -= 1;
  return { lines: lines.slice(0, last), cursor };
}
