import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellTool } from '../../src/tools/builtin/shell';
import { BackgroundJobs } from '../../src/tools/shell/background-jobs';
import type {
  ExternalTerminal,
  ExternalTerminals,
  TerminalCommand,
  TerminalExit,
} from '../../src/tools/shell/terminal';
import { runTool, text } from './helpers';

/**
 * The shell tool with an outside terminal (an editor's): the command goes there instead of a
 * local process, and kodo's limits still hold — the terminal is killed on cancel, after too long
 * without output and past the time limit, and released whatever happened.
 */
class FakeTerminal implements ExternalTerminal {
  output_ = '';
  truncated = false;
  exit: TerminalExit | undefined;
  killed = false;
  released = false;
  private exited!: (exit: TerminalExit) => void;
  private readonly exitPromise = new Promise<TerminalExit>((resolve) => {
    this.exited = resolve;
  });

  finish(exit: TerminalExit): void {
    this.exit = exit;
    this.exited(exit);
  }

  async output() {
    return { output: this.output_, truncated: this.truncated, ...(this.exit ? { exit: this.exit } : {}) };
  }
  waitForExit() {
    return this.exitPromise;
  }
  async kill() {
    this.killed = true;
    this.finish({ exitCode: null, signal: 'SIGKILL' });
  }
  async release() {
    this.released = true;
  }
}

class FakeTerminals implements ExternalTerminals {
  readonly commands: TerminalCommand[] = [];
  readonly terminals: FakeTerminal[] = [];
  constructor(private readonly script: (terminal: FakeTerminal) => void = () => undefined) {}
  async create(command: TerminalCommand): Promise<ExternalTerminal> {
    this.commands.push(command);
    const terminal = new FakeTerminal();
    this.terminals.push(terminal);
    this.script(terminal);
    return terminal;
  }
}

let ws: TempWorkspace;
let jobs: BackgroundJobs | undefined;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(async () => {
  await jobs?.dispose();
  jobs = undefined;
  ws.cleanup();
});

describe('run_shell_command in an outside terminal', () => {
  it('runs bash -c there and reports output and exit code as for a local command', async () => {
    const terminals = new FakeTerminals((terminal) => {
      terminal.output_ = '\u001b[31mred\u001b[0m line\n';
      setTimeout(() => terminal.finish({ exitCode: 2, signal: null }), 10);
    });
    ws.ctx.terminals = terminals;
    const result = await runTool(shellTool, { command: 'make test', dir_path: '.' }, ws.ctx, {
      callId: 'call-1',
    });
    expect(terminals.commands).toEqual([
      expect.objectContaining({ callId: 'call-1', file: 'bash', args: ['-c', 'make test'], cwd: ws.root }),
    ]);
    expect(terminals.commands[0]!.env).toMatchObject({ KODO_CLI: '1', PAGER: 'cat' });
    // No credentials travel: only the markers are added to the terminal's environment.
    expect(Object.keys(terminals.commands[0]!.env).sort()).toEqual(
      ['GEMINI_CLI', 'GIT_PAGER', 'KODO_CLI', 'PAGER', 'TERM'].sort(),
    );
    expect(text(result)).toContain('Output: red line');
    expect(text(result)).toContain('Exit Code: 2');
    expect(result.returnDisplay).toBe('red line');
    expect(terminals.terminals[0]!.released).toBe(true);
    expect(terminals.terminals[0]!.killed).toBe(false);
  });

  it('says when the terminal dropped the start of the output', async () => {
    ws.ctx.terminals = new FakeTerminals((terminal) => {
      terminal.output_ = 'the end\n';
      terminal.truncated = true;
      terminal.finish({ exitCode: 0, signal: null });
    });
    const result = await runTool(shellTool, { command: 'yes | head -n 100000' }, ws.ctx);
    expect(text(result)).toContain('[the start of the output was dropped by the terminal]');
  });

  it('kills and releases the terminal on cancel', async () => {
    const terminals = new FakeTerminals((terminal) => {
      terminal.output_ = 'working\n';
    });
    ws.ctx.terminals = terminals;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const result = await runTool(shellTool, { command: 'sleep 100' }, ws.ctx, { signal: controller.signal });
    expect(text(result)).toContain('cancelled by user');
    expect(text(result)).toContain('working');
    expect(terminals.terminals[0]).toMatchObject({ killed: true, released: true });
  });

  it('kills a command that prints nothing for the inactivity timeout', async () => {
    const terminals = new FakeTerminals();
    ws.ctx.terminals = terminals;
    ws.ctx.shellInactivityTimeoutMs = 60;
    const result = await runTool(shellTool, { command: 'read forever' }, ws.ctx);
    expect(text(result)).toContain('exceeded the timeout');
    expect(terminals.terminals[0]).toMatchObject({ killed: true, released: true });
  });

  it('kills a command past the time limit even while it keeps printing', async () => {
    let ticks = 0;
    const terminals = new FakeTerminals((terminal) => {
      const timer = setInterval(() => {
        ticks += 1;
        terminal.output_ += `tick ${ticks}\n`;
        if (terminal.exit) clearInterval(timer);
      }, 5);
    });
    ws.ctx.terminals = terminals;
    ws.ctx.shellInactivityTimeoutMs = 1_000;
    jobs = new BackgroundJobs({ logDir: undefined });
    ws.ctx.shell = {
      jobs,
      outputLimit: { thresholdChars: 4000, spillDir: undefined },
      commandLimits: { maxOutputChars: 1_000_000, maxSavedChars: 1_000_000, maxDurationMs: 80 },
    };
    const result = await runTool(shellTool, { command: 'watch date' }, ws.ctx);
    expect(text(result)).toContain('ran longer than the limit');
    expect(terminals.terminals[0]).toMatchObject({ killed: true, released: true });
  });

  it('a terminal that cannot be created is an error the model reads', async () => {
    ws.ctx.terminals = {
      create: () => Promise.reject(new Error('the editor has no terminal')),
    };
    const failed = await runTool(shellTool, { command: 'ls' }, ws.ctx);
    expect(failed.error?.type).toBe('shell_execute_error');
    expect(failed.error?.message).toContain('the editor has no terminal');
  });
});
