/**
 * The editor side of `terminal/*` for the ACP e2e tests, as an editor implements it: each
 * terminal is a real process (its own process group) whose output the "editor" keeps, cut from
 * the start at the byte limit kodo asked for. Every call is recorded, so tests can check what kodo
 * asked for and that it released every terminal it created.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk';

interface Terminal {
  child: ChildProcess;
  output: string;
  truncated: boolean;
  limit: number;
  exit?: { exitCode: number | null; signal: string | null };
  exited: Promise<void>;
}

export interface TerminalCall {
  method: string;
  terminalId: string;
  command?: string;
  args?: string[];
  cwd?: string | null;
  env?: Record<string, string>;
}

export class FakeEditorTerminals {
  readonly calls: TerminalCall[] = [];
  /** Process ids of every terminal's command, so tests can see they are gone. */
  readonly pids: number[] = [];
  private readonly terminals = new Map<string, Terminal>();
  private next = 0;

  create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    this.next += 1;
    const terminalId = `term-${this.next}`;
    const env = Object.fromEntries((params.env ?? []).map(({ name, value }) => [name, value]));
    this.calls.push({
      method: 'create',
      terminalId,
      command: params.command,
      args: params.args ?? [],
      cwd: params.cwd ?? null,
      env,
    });
    const child = spawn(params.command, params.args ?? [], {
      cwd: params.cwd ?? process.cwd(),
      env: { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) this.pids.push(child.pid);
    const terminal: Terminal = {
      child,
      output: '',
      truncated: false,
      limit: params.outputByteLimit ?? Number.POSITIVE_INFINITY,
      exited: new Promise((resolve) =>
        child.on('close', (exitCode, signal) => {
          terminal.exit = { exitCode, signal };
          resolve();
        }),
      ),
    };
    const take = (chunk: Buffer) => {
      terminal.output += chunk.toString('utf8');
      if (Buffer.byteLength(terminal.output) > terminal.limit) {
        terminal.output = terminal.output.slice(-terminal.limit);
        terminal.truncated = true;
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.terminals.set(terminalId, terminal);
    return { terminalId };
  }

  output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    const terminal = this.get('output', params.terminalId);
    return {
      output: terminal.output,
      truncated: terminal.truncated,
      ...(terminal.exit ? { exitStatus: terminal.exit } : {}),
    };
  }

  async waitForExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    const terminal = this.get('wait_for_exit', params.terminalId);
    await terminal.exited;
    return terminal.exit ?? {};
  }

  kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse {
    const terminal = this.get('kill', params.terminalId);
    stop(terminal);
    return {};
  }

  release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    const terminal = this.get('release', params.terminalId);
    stop(terminal);
    this.terminals.delete(params.terminalId);
    return {};
  }

  /** Terminals created and not released. */
  get open(): number {
    return this.terminals.size;
  }

  private get(method: string, terminalId: string): Terminal {
    this.calls.push({ method, terminalId });
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw acp.RequestError.resourceNotFound(terminalId);
    return terminal;
  }
}

function stop(terminal: Terminal): void {
  if (terminal.exit || terminal.child.pid === undefined) return;
  try {
    process.kill(-terminal.child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
