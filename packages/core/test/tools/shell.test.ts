import { existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootCommands, shellTool } from '../../src/tools/builtin/shell';
import type { ToolResult } from '../../src/tools/tool';
import { sanitizeEnv } from '../../src/utils/env';
import { buildError, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const shell = (args: Record<string, unknown>, signal?: AbortSignal) =>
  runTool(shellTool, args, ws.ctx, signal ? { signal } : {});

/** The result body without the wrapper and the (variable) process group line. */
function body(result: ToolResult): string {
  const content = text(result);
  expect(content.startsWith('<untrusted_context>\n')).toBe(true);
  expect(content.endsWith('\n</untrusted_context>')).toBe(true);
  return content
    .slice('<untrusted_context>\n'.length, -'\n</untrusted_context>'.length)
    .replace(/\nProcess Group PGID: \d+$/, '');
}

/** Whether a process is running (a zombie counts as gone: it is dead, only not yet reaped). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

function pidsIn(rel: string): number[] {
  const path = join(ws.root, rel);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map(Number);
}

describe('run_shell_command', () => {
  it('returns the output and the process group', async () => {
    const result = await shell({ command: 'echo hello' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toMatch(
      /^<untrusted_context>\nOutput: hello\nProcess Group PGID: \d+\n<\/untrusted_context>$/,
    );
    expect(result.returnDisplay).toBe('hello');
  });

  it('reports a non-zero exit code as a successful call', async () => {
    const result = await shell({ command: 'echo out; echo err >&2; exit 3' });
    expect(result.error).toBeUndefined();
    expect(body(result)).toBe('Output: out\nerr\nExit Code: 3');
  });

  it('says (empty) when there is no output', async () => {
    expect(body(await shell({ command: 'true' }))).toBe('Output: (empty)');
  });

  it('reports the signal that ended the command', async () => {
    expect(body(await shell({ command: 'kill -TERM $$' }))).toBe('Output: (empty)\nSignal: SIGTERM');
  });

  it('strips terminal escape sequences for the model but streams raw output', async () => {
    const chunks: string[] = [];
    const result = await runTool(shellTool, { command: "printf '\\033[31mred\\033[0m\\n'" }, ws.ctx, {
      onOutput: (chunk) => chunks.push(chunk),
    });
    expect(body(result)).toBe('Output: red');
    expect(chunks.join('')).toBe('\x1b[31mred\x1b[0m\n');
  });

  it('runs in the workspace by default, or in dir_path', async () => {
    mkdirSync(join(ws.root, 'sub'));
    expect(body(await shell({ command: 'pwd' }))).toBe(`Output: ${ws.root}`);
    expect(body(await shell({ command: 'pwd', dir_path: 'sub' }))).toBe(`Output: ${join(ws.root, 'sub')}`);
  });

  it('sets the agent environment and passes the context environment', async () => {
    ws.ctx.env = { PATH: process.env.PATH, CUSTOM_VAR: 'yes' };
    const result = await shell({
      command: 'echo $KODO_CLI $GEMINI_CLI $TERM $PAGER $GIT_PAGER $CUSTOM_VAR $HOME',
    });
    expect(body(result)).toBe('Output: 1 1 xterm-256color cat cat yes');
  });

  it('never passes API keys to the command, even if the context environment has them', async () => {
    const saved = { gemini: process.env.GEMINI_API_KEY, openai: process.env.OPENAI_API_KEY };
    process.env.GEMINI_API_KEY = 'gemini-secret';
    process.env.OPENAI_API_KEY = 'openai-secret';
    try {
      // `-unset`: bash's default for a variable that is not set at all.
      const probe = ['GEMINI_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY']
        .map((name) => `[\${${name}-unset}]`)
        .join(' ');
      const command = `echo "${probe}"`;
      // The session's environment (sanitized from the parent's)…
      ws.ctx.env = sanitizeEnv(process.env);
      expect(body(await shell({ command }))).toBe('Output: [unset] [unset] [unset]');
      // …and a careless caller handing over the raw parent environment.
      ws.ctx.env = { ...process.env, ANTHROPIC_API_KEY: 'anthropic-secret' };
      expect(body(await shell({ command }))).toBe('Output: [unset] [unset] [unset]');
    } finally {
      for (const [name, value] of [
        ['GEMINI_API_KEY', saved.gemini],
        ['OPENAI_API_KEY', saved.openai],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('closes stdin', async () => {
    expect(body(await shell({ command: 'cat; echo done' }))).toBe('Output: done');
  });

  it('kills a command that prints nothing for too long', async () => {
    ws.ctx.shellInactivityTimeoutMs = 300;
    const started = Date.now();
    const result = await shell({ command: 'echo started; sleep 30' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(text(result)).toBe(
      'Command was automatically cancelled because it exceeded the timeout of 0.0 minutes without output. Below is the output before it was cancelled:\nstarted',
    );
    const silent = await shell({ command: 'sleep 30' });
    expect(text(silent)).toBe(
      'Command was automatically cancelled because it exceeded the timeout of 0.0 minutes without output. There was no output before it was cancelled.',
    );
  });

  it('resets the inactivity timeout on output', async () => {
    ws.ctx.shellInactivityTimeoutMs = 400;
    const result = await shell({ command: 'for i in 1 2 3 4 5; do echo $i; sleep 0.15; done' });
    expect(body(result)).toBe('Output: 1\n2\n3\n4\n5');
  });

  it('kills the whole process group on abort: no orphans', async () => {
    const controller = new AbortController();
    const command = 'sleep 30 & echo $! >> pids; sleep 30 & echo $! >> pids; echo $$ >> pids; wait';
    const pending = shell({ command }, controller.signal);
    await waitFor(() => pidsIn('pids').length === 3);
    const pids = pidsIn('pids');
    expect(pids.every(isRunning)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(text(result)).toBe(
      'Command was cancelled by user before it could complete. There was no output before it was cancelled.',
    );
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const controller = new AbortController();
    const command = "trap '' TERM; (trap '' TERM; sleep 30) & echo $! > pids; echo ready; wait";
    const pending = shell({ command }, controller.signal);
    await waitFor(() => pidsIn('pids').length === 1);
    await sleep(50);
    controller.abort();
    const result = await pending;
    expect(text(result)).toContain('Below is the output before it was cancelled:\nready');
    expect(pidsIn('pids').filter(isRunning)).toEqual([]);
  });

  it('does not start when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await shell({ command: 'touch ran' }, controller.signal);
    expect(text(result)).toBe('Command was cancelled by user before it could start.');
    expect(existsSync(join(ws.root, 'ran'))).toBe(false);
  });

  // Group members are read from /proc; elsewhere the line is left out.
  it.skipIf(!existsSync('/proc/self/stat'))(
    'lists background processes that outlive the command',
    async () => {
      const result = await shell({ command: 'sleep 5 & echo started' });
      const match = /Background PIDs: (\d+)/.exec(text(result));
      expect(match).not.toBeNull();
      process.kill(Number(match![1]), 'SIGKILL');
    },
  );

  it('reports a failure to start as shell_execute_error', async () => {
    mkdirSync(join(ws.root, 'gone'));
    const built = shellTool.build({ command: 'echo hi', dir_path: 'gone' }, ws.ctx);
    if (!built.ok) throw new Error('build failed');
    rmdirSync(join(ws.root, 'gone'));
    const result = await built.invocation.execute({ signal: new AbortController().signal });
    expect(result.error?.type).toBe('shell_execute_error');
    expect(text(result)).toContain('Error: ');
  });

  it('validates parameters', () => {
    ws.write('file.txt', '');
    expect(buildError(shellTool, {}, ws.ctx)?.message).toBe("params must have required property 'command'");
    expect(buildError(shellTool, { command: '  ' }, ws.ctx)?.message).toBe('Command cannot be empty.');
    expect(buildError(shellTool, { command: 'ls', dir_path: 'missing' }, ws.ctx)?.message).toBe(
      `Directory does not exist: ${join(ws.root, 'missing')}`,
    );
    expect(buildError(shellTool, { command: 'ls', dir_path: 'file.txt' }, ws.ctx)?.message).toBe(
      `Path is not a directory: ${join(ws.root, 'file.txt')}`,
    );
    for (const dir_path of ['..', '/', '/etc']) {
      expect(buildError(shellTool, { command: 'ls', dir_path }, ws.ctx)?.type).toBe('path_not_in_workspace');
    }
  });

  it('shows the description to the person, not just the command', async () => {
    const args = { command: 'npm test', description: 'Run the\nunit tests', dir_path: '.' };
    const built = shellTool.build(args, ws.ctx);
    if (!built.ok) throw new Error('build failed');
    expect(built.invocation.describe()).toBe('npm test [in .] (Run the unit tests)');
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    expect(details.title).toBe('Confirm Shell Command: Run the unit tests');
    const background = shellTool.build({ command: 'npm start', is_background: true }, ws.ctx);
    if (!background.ok) throw new Error('build failed');
    expect(background.invocation.describe()).toBe('npm start [background]');
  });

  it('asks for confirmation with the root commands', async () => {
    const built = shellTool.build({ command: 'FOO=1 npm test 2>&1 | tail -5 && git status; ls &' }, ws.ctx);
    if (!built.ok) throw new Error('build failed');
    expect(await built.invocation.confirmationDetails(new AbortController().signal)).toEqual({
      kind: 'exec',
      title: 'Confirm Shell Command',
      command: 'FOO=1 npm test 2>&1 | tail -5 && git status; ls &',
      rootCommands: ['npm', 'tail', 'git', 'ls'],
    });
  });
});

describe('rootCommands', () => {
  it('splits on control operators, skipping assignments', () => {
    expect(rootCommands('a || b; c | d |& e\nf')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(rootCommands('cmd &>/dev/null & other')).toEqual(['cmd', 'other']);
    expect(rootCommands('(cd x && make)')).toEqual(['cd', 'make)']);
  });
});
