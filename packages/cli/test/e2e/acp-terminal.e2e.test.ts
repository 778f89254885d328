import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { findOnPath, probeBwrap } from '@kodo/core/engine';
import { describe, expect, it } from 'vitest';
import { startAcpKodo } from './acp-harness';
import { shellCall, writeScript } from './acp-script';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();
// Unconfined: a sandboxed command stays local (tested below), and inside the sandbox's pid
// namespace `$$` would not be the host's pid.
const env = () => ({
  KODO_HOME: dirs.home,
  GEMINI_CLI_HOME: dirs.home,
  GEMINI_API_KEY: 'test-key',
  KODO_SANDBOX: 'false',
});
const BWRAP = findOnPath('bwrap', process.env);
const bwrapStarts = BWRAP ? (await probeBwrap(BWRAP)).ok : false;

/** Everything kodo recorded in its session logs (what the model was given). */
function recorded(): string {
  const root = join(dirs.home, 'sessions');
  if (!existsSync(root)) return '';
  const texts: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.jsonl')) {
      texts.push(readFileSync(join(entry.parentPath, entry.name), 'utf8'));
    }
  }
  return texts.join('\n');
}

function toolUpdates(updates: readonly acp.SessionNotification[], toolCallId: string) {
  return updates
    .map(({ update }) => update)
    .filter(
      (update): update is acp.SessionUpdate & acp.ToolCallUpdate =>
        (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
        update.toolCallId === toolCallId,
    );
}

/** Processes whose command line contains `marker` (kodo may run commands in a pid namespace). */
function running(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(marker))
        pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function until(test: () => boolean, timeoutMs: number): Promise<boolean> {
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    if (test()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return test();
}

/** A `sleep` no other process runs, to find and count. */
const slowCommand = () => `exec sleep ${30 + Math.random()}`;

describe('kodo --acp shell commands', () => {
  it("runs an approved command in the editor's terminal and shows the terminal in the call", async () => {
    const command = 'echo from-terminal; echo to-stderr >&2; exit 3';
    const script = writeScript(dirs.root, 'shell.jsonl', [
      [{ text: 'Running it.' }, shellCall(command)],
      [{ text: 'It failed with 3.' }],
    ]);
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', script],
      terminal: true,
    });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      const answer = await kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'run it' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      // Approval first: the editor was asked, then the terminal was created.
      expect(kodo.permissions).toHaveLength(1);
      expect(kodo.permissions[0]!.toolCall.kind).toBe('execute');
      const [create, ...rest] = kodo.terminals.calls;
      expect(create).toMatchObject({
        method: 'create',
        command: 'bash',
        args: ['-c', command],
        cwd: dirs.workspace,
        env: { KODO_CLI: '1', PAGER: 'cat' },
      });
      expect(rest.map((call) => call.method)).toContain('wait_for_exit');
      expect(rest.at(-1)).toEqual({ method: 'release', terminalId: create!.terminalId });
      expect(kodo.terminals.open).toBe(0);
      // The call shows the terminal, and keeps showing it when it completes.
      const callId = kodo.permissions[0]!.toolCall.toolCallId;
      const updates = toolUpdates(kodo.updates, callId);
      expect(updates.some((update) => update.content?.[0]?.type === 'terminal')).toBe(true);
      const withTerminal = updates.find((update) => update.content?.[0]?.type === 'terminal');
      expect(withTerminal!.content).toEqual([{ type: 'terminal', terminalId: create!.terminalId }]);
      const last = updates.at(-1)!;
      expect(last.status).toBe('completed');
      expect(last.content).toBeUndefined();
      // The model read the terminal's output and the exit code, as from a local command.
      const log = recorded();
      expect(log).toContain('from-terminal');
      expect(log).toContain('to-stderr');
      expect(log).toContain('Exit Code: 3');
    } finally {
      expect(await kodo.close()).toBe(0);
    }
  });

  it("a `!command` prompt runs in the editor's terminal too, and its call shows that terminal", async () => {
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: env(), terminal: true });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      const answer = await kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: '!echo typed-in-editor' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      const [create] = kodo.terminals.calls;
      expect(create).toMatchObject({ method: 'create', args: ['-c', 'echo typed-in-editor'] });
      const updates = toolUpdates(kodo.updates, kodo.permissions[0]!.toolCall.toolCallId);
      expect(updates[0]).toMatchObject({ sessionUpdate: 'tool_call', kind: 'execute' });
      expect(updates.some((update) => update.content?.[0]?.type === 'terminal')).toBe(true);
      expect(updates.at(-1)!.status).toBe('completed');
    } finally {
      expect(await kodo.close()).toBe(0);
    }
  });

  it('a refused command never reaches the terminal', async () => {
    const marker = join(dirs.workspace, 'ran.txt');
    const script = writeScript(dirs.root, 'shell.jsonl', [
      [shellCall(`touch ${marker}`)],
      [{ text: 'Not allowed, then.' }],
    ]);
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', script],
      terminal: true,
      permission: 'cancel',
    });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
      expect(kodo.permissions).toHaveLength(1);
      expect(kodo.terminals.calls).toEqual([]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await kodo.close();
    }
  });

  it('without the terminal capability the command runs locally and streams its output into the call', async () => {
    const script = writeScript(dirs.root, 'shell.jsonl', [
      [shellCall('echo local-output')],
      [{ text: 'Done.' }],
    ]);
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: env(), args: ['--fake-responses', script] });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await kodo.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
      await kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
      expect(kodo.terminals.calls).toEqual([]);
      const call = kodo.updates.find(({ update }) => update.sessionUpdate === 'tool_call')!
        .update as acp.ToolCall;
      const last = toolUpdates(kodo.updates, call.toolCallId).at(-1)!;
      expect(last.status).toBe('completed');
      expect(last.content).toEqual([{ type: 'content', content: { type: 'text', text: 'local-output' } }]);
    } finally {
      await kodo.close();
    }
  });

  it.skipIf(!bwrapStarts)(
    "a sandboxed session keeps its commands in the sandbox, not the editor's terminal",
    async () => {
      const script = writeScript(dirs.root, 'shell.jsonl', [
        [shellCall('echo confined')],
        [{ text: 'Done.' }],
      ]);
      const kodo = startAcpKodo({
        cwd: dirs.workspace,
        env: { ...env(), KODO_SANDBOX: 'bwrap' },
        args: ['--fake-responses', script],
        terminal: true,
      });
      try {
        await kodo.initialize();
        const { sessionId } = await kodo.agent.request('session/new', {
          cwd: dirs.workspace,
          mcpServers: [],
        });
        await kodo.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
        await kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
        expect(kodo.terminals.calls).toEqual([]);
        expect(recorded()).toContain('confined');
      } finally {
        await kodo.close();
      }
    },
  );

  it("cancel stops a command in the editor's terminal: killed, released, the process gone", async () => {
    const command = slowCommand();
    const script = writeScript(dirs.root, 'shell.jsonl', [[shellCall(command)]]);
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', script],
      terminal: true,
    });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await kodo.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
      const answer = kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      });
      expect(await until(() => running(command.slice(5)).length > 0, 10_000)).toBe(true);
      const started = Date.now();
      await kodo.agent.notify('session/cancel', { sessionId });
      expect((await answer).stopReason).toBe('cancelled');
      expect(Date.now() - started).toBeLessThan(4_000);
      const methods = kodo.terminals.calls.map((call) => call.method);
      expect(methods).toContain('kill');
      expect(methods.at(-1)).toBe('release');
      expect(kodo.terminals.open).toBe(0);
      expect(await until(() => running(command.slice(5)).length === 0, 3_000)).toBe(true);
    } finally {
      await kodo.close();
    }
  });

  it('cancel stops a local command and the shell a subagent runs', async () => {
    const command = slowCommand();
    const script = writeScript(dirs.root, 'subagent-shell.jsonl', [
      [
        {
          functionCall: {
            name: 'invoke_agent',
            args: { agent_name: 'generalist', prompt: 'run the slow command' },
          },
        },
      ],
      [shellCall(command)],
    ]);
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: env(), args: ['--fake-responses', script] });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await kodo.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
      const answer = kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      });
      expect(await until(() => running(command.slice(5)).length > 0, 10_000)).toBe(true);
      await kodo.agent.notify('session/cancel', { sessionId });
      expect((await answer).stopReason).toBe('cancelled');
      expect(await until(() => running(command.slice(5)).length === 0, 3_000)).toBe(true);
      // The subagent's shell call was shown under the invoke_agent call.
      const calls = kodo.updates
        .map(({ update }) => update)
        .filter((update): update is acp.SessionUpdate & acp.ToolCall => update.sessionUpdate === 'tool_call');
      const parent = calls.find((call) => !call.toolCallId.includes('/'))!;
      const child = calls.find((call) => call.toolCallId.startsWith(`${parent.toolCallId}/`))!;
      expect(child.kind).toBe('execute');
      expect(child._meta).toEqual({ kodo: { parentToolCallId: parent.toolCallId, agent: 'generalist' } });
      expect(toolUpdates(kodo.updates, child.toolCallId).at(-1)!.status).toBe('failed');
    } finally {
      await kodo.close();
    }
  });
});
