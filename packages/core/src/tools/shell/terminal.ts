/**
 * Foreground shell commands in a terminal kodo does not own (an editor's, over ACP): the editor
 * spawns the process and shows it live; kodo only creates, watches, stops and releases it. The
 * same limits apply as to a local command — cancellation, the inactivity timeout, the time limit —
 * and the terminal is always released, whatever happens.
 */

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/** One running command in the outside terminal. */
export interface ExternalTerminal {
  /** The output so far (the terminal keeps at most the byte limit it was created with, its end). */
  output(): Promise<{ output: string; truncated: boolean; exit?: TerminalExit }>;
  waitForExit(): Promise<TerminalExit>;
  kill(): Promise<void>;
  release(): Promise<void>;
}

export interface TerminalCommand {
  /** The tool call this command belongs to, so the front end can show the terminal in it. */
  callId: string | undefined;
  file: string;
  args: string[];
  cwd: string;
  /** Variables added to the terminal's own environment (it cannot be asked to drop any). */
  env: Record<string, string>;
  outputByteLimit: number;
}

/** Where commands run when the session has an outside terminal (ToolContext.terminals). */
export interface ExternalTerminals {
  create(command: TerminalCommand, signal: AbortSignal): Promise<ExternalTerminal>;
}

export interface TerminalRunResult {
  output: string;
  /** The terminal dropped the start of the output (past its byte limit). */
  truncated: boolean;
  exitCode: number | null;
  signal: string | null;
  endedBy: 'exit' | 'abort' | 'timeout' | 'time_limit';
  /** The terminal could not be created or answered with an error. */
  error?: Error;
}

/** How often a running command's output is looked at, for the inactivity timeout. */
const POLL_MS = 2_000;

export async function runInTerminal(
  terminals: ExternalTerminals,
  command: TerminalCommand,
  limits: { signal: AbortSignal; inactivityTimeoutMs: number; maxDurationMs: number },
): Promise<TerminalRunResult> {
  let terminal: ExternalTerminal;
  try {
    terminal = await terminals.create(command, limits.signal);
  } catch (error) {
    const endedBy = limits.signal.aborted ? 'abort' : 'exit';
    return { output: '', truncated: false, exitCode: null, signal: null, endedBy, error: asError(error) };
  }
  try {
    const ended = await watch(terminal, limits);
    if (ended.endedBy !== 'exit') await terminal.kill().catch(() => undefined);
    const { output, truncated, exit } = await terminal.output();
    const status = ended.exit ?? exit ?? { exitCode: null, signal: null };
    return { output, truncated, ...status, endedBy: ended.endedBy };
  } catch (error) {
    await terminal.kill().catch(() => undefined);
    return {
      output: '',
      truncated: false,
      exitCode: null,
      signal: null,
      endedBy: 'exit',
      error: asError(error),
    };
  } finally {
    await terminal.release().catch(() => undefined);
  }
}

/** Resolves when the command exits, is cancelled, goes quiet for too long or runs too long. */
function watch(
  terminal: ExternalTerminal,
  limits: { signal: AbortSignal; inactivityTimeoutMs: number; maxDurationMs: number },
): Promise<{ endedBy: TerminalRunResult['endedBy']; exit?: TerminalExit }> {
  return new Promise((resolve, reject) => {
    const timers: NodeJS.Timeout[] = [];
    let done = false;
    const finish = (result: { endedBy: TerminalRunResult['endedBy']; exit?: TerminalExit }) => {
      if (done) return;
      done = true;
      for (const timer of timers) clearTimeout(timer);
      limits.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = () => finish({ endedBy: 'abort' });
    if (limits.signal.aborted) return onAbort();
    limits.signal.addEventListener('abort', onAbort, { once: true });
    terminal.waitForExit().then(
      (exit) => finish({ endedBy: 'exit', exit }),
      (error: unknown) => {
        if (done) return;
        done = true;
        for (const timer of timers) clearTimeout(timer);
        limits.signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
    if (limits.maxDurationMs > 0) {
      timers.push(setTimeout(() => finish({ endedBy: 'time_limit' }), limits.maxDurationMs));
    }
    if (limits.inactivityTimeoutMs > 0) {
      // The terminal has no output events: its output is compared between polls instead.
      let last = '';
      let quietSince = Date.now();
      const poll = () => {
        terminal.output().then(
          ({ output, exit }) => {
            if (done || exit) return;
            if (output !== last) {
              last = output;
              quietSince = Date.now();
            } else if (Date.now() - quietSince >= limits.inactivityTimeoutMs) {
              return finish({ endedBy: 'timeout' });
            }
            timers.push(setTimeout(poll, Math.min(POLL_MS, limits.inactivityTimeoutMs)));
          },
          () => undefined,
        );
      };
      timers.push(setTimeout(poll, Math.min(POLL_MS, limits.inactivityTimeoutMs)));
    }
  });
}

function asError(error: unknown): Error {
  return error instanceof Error
    ? error
    : new Error(String((error as { message?: unknown })?.message ?? error));
}
