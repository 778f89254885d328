import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellTool } from '../../src/tools/builtin/shell';
import type { PseudoTerminal, PseudoTerminalRun } from '../../src/tools/shell/pseudo-terminal';
import { runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

/** A terminal that records what it was asked to run and answers like a command that printed. */
function recordingTerminal(answer: 'ran' | 'unavailable'): PseudoTerminal & { runs: PseudoTerminalRun[] } {
  const runs: PseudoTerminalRun[] = [];
  return {
    runs,
    async run(options) {
      runs.push(options);
      if (answer === 'unavailable') return undefined;
      options.sink.append('from the terminal\n');
      return { exitCode: 3, signal: null, pid: 4242, endedBy: 'exit', outputChars: 18, backgroundPids: [] };
    },
  };
}

describe('run_shell_command with a pseudo-terminal (the interactive UI)', () => {
  it('hands the foreground command to the terminal, with the call id, and reads its output like pipes', async () => {
    const terminal = recordingTerminal('ran');
    const result = await runTool(
      shellTool,
      { command: 'echo hi' },
      { ...ws.ctx, pseudoTerminal: terminal },
      { callId: 'call-7' },
    );
    expect(terminal.runs).toHaveLength(1);
    expect(terminal.runs[0]!.callId).toBe('call-7');
    expect(terminal.runs[0]!.launch).toEqual({ file: 'bash', args: ['-c', 'echo hi'] });
    expect(terminal.runs[0]!.env.TERM).toBe('xterm-256color');
    expect(text(result)).toContain('Output: from the terminal');
    expect(text(result)).toContain('Exit Code: 3');
  });

  it('uses pipes when the terminal cannot open (and without a terminal: headless)', async () => {
    const terminal = recordingTerminal('unavailable');
    const fallback = await runTool(
      shellTool,
      { command: 'test -t 0 && echo tty || echo no-tty' },
      { ...ws.ctx, pseudoTerminal: terminal },
    );
    expect(terminal.runs).toHaveLength(1);
    expect(text(fallback)).toContain('Output: no-tty');
    const headless = await runTool(shellTool, { command: 'test -t 0 && echo tty || echo no-tty' }, ws.ctx);
    expect(text(headless)).toContain('Output: no-tty');
  });

  it('keeps background commands on pipes: they outlive the call', async () => {
    const terminal = recordingTerminal('ran');
    const result = await runTool(
      shellTool,
      { command: 'echo started', is_background: true, delay_ms: 50 },
      { ...ws.ctx, pseudoTerminal: terminal },
    );
    expect(terminal.runs).toHaveLength(0);
    expect(text(result)).not.toContain('from the terminal');
  });
});
