import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { geminiChunk, startGeminiMock } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { agentText, startAcpKodo } from './acp-harness';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();
const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', name);
const env = () => ({ KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, GEMINI_API_KEY: 'test-key' });

function kinds(updates: readonly acp.SessionNotification[]): string[] {
  return updates.map(({ update }) => update.sessionUpdate);
}

describe('kodo --acp', () => {
  it('answers initialize with version 1, its capabilities and auth methods', async () => {
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', fixture('text-only.jsonl')],
    });
    try {
      const init = await kodo.initialize();
      expect(init.protocolVersion).toBe(1);
      expect(init.agentCapabilities).toMatchObject({
        loadSession: true,
        promptCapabilities: { image: true, embeddedContext: true },
        mcpCapabilities: { http: true },
      });
      expect(init.authMethods?.map((method) => method.id)).toEqual(['api-key']);
      expect(init.agentInfo?.name).toBe('kodo');
    } finally {
      expect(await kodo.close()).toBe(0);
    }
  });

  it('runs a prompt with an edit: permission round trip with the diff, the write through the editor, updates in order', async () => {
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', fixture('write-file.jsonl')],
      fileSystem: true,
    });
    try {
      await kodo.initialize();
      const { sessionId, modes } = await kodo.agent.request('session/new', {
        cwd: dirs.workspace,
        mcpServers: [],
      });
      expect(modes?.currentModeId).toBe('default');
      const answer = await kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'create notes/hello.txt' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      const target = join(dirs.workspace, 'notes', 'hello.txt');
      // The permission request named the call, offered kodo's options and showed the new file as a diff.
      expect(kodo.permissions).toHaveLength(1);
      const [request] = kodo.permissions;
      expect(request!.options.map((option) => option.kind)).toEqual([
        'allow_once',
        'allow_always',
        'reject_once',
      ]);
      expect(request!.toolCall).toMatchObject({
        kind: 'edit',
        status: 'pending',
        locations: [{ path: target }],
      });
      expect(request!.toolCall.content).toEqual([
        { type: 'diff', path: target, oldText: null, newText: 'hello\nworld\n' },
      ]);
      // The file went through the editor's fs/write_text_file, and is on disk because this client wrote it.
      expect(kodo.fsCalls).toContainEqual({ method: 'write', path: target });
      expect(readFileSync(target, 'utf8')).toBe('hello\nworld\n');
      const mine = kodo.updates.filter((notification) => notification.sessionId === sessionId);
      const toolUpdates = mine.filter(({ update }) => update.sessionUpdate.startsWith('tool_call'));
      expect(toolUpdates.map(({ update }) => ('status' in update ? update.status : undefined))).toEqual([
        'pending',
        'in_progress',
        'completed',
      ]);
      const done = toolUpdates.at(-1)!.update as acp.ToolCallUpdate;
      expect(done.content).toEqual([
        { type: 'diff', path: target, oldText: null, newText: 'hello\nworld\n' },
      ]);
      expect(agentText(mine)).toBe('Creating the file.Wrote notes/hello.txt.');
      expect(kinds(mine)).toContain('usage_update');
    } finally {
      expect(await kodo.close()).toBe(0);
    }
  });

  it('a rejected permission leaves the file unwritten and tells the model', async () => {
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', fixture('write-file.jsonl')],
      permission: 'cancel',
    });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      const answer = await kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      expect(existsSync(join(dirs.workspace, 'notes', 'hello.txt'))).toBe(false);
      const statuses = kodo.updates.flatMap(({ update }) =>
        update.sessionUpdate === 'tool_call_update' && update.status ? [update.status] : [],
      );
      expect(statuses.at(-1)).toBe('failed');
    } finally {
      await kodo.close();
    }
  });

  it('switches modes with current_mode_update; yolo writes without asking; an unknown mode is -32602', async () => {
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', fixture('write-file.jsonl')],
    });
    try {
      await kodo.initialize();
      const { sessionId, modes } = await kodo.agent.request('session/new', {
        cwd: dirs.workspace,
        mcpServers: [],
      });
      expect(modes?.availableModes.map((mode) => mode.id)).toEqual(['default', 'auto_edit', 'yolo', 'plan']);
      await kodo.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
      await kodo.waitForUpdate(
        (update) => update.sessionUpdate === 'current_mode_update' && update.currentModeId === 'yolo',
      );
      await expect(
        kodo.agent.request('session/set_mode', { sessionId, modeId: 'turbo' }),
      ).rejects.toMatchObject({
        code: -32602,
      });
      const answer = await kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      expect(kodo.permissions).toHaveLength(0);
      expect(readFileSync(join(dirs.workspace, 'notes', 'hello.txt'), 'utf8')).toBe('hello\nworld\n');
    } finally {
      await kodo.close();
    }
  });

  it('cancels a streaming turn: stop reason cancelled, promptly', async () => {
    const mock = await startGeminiMock({
      script: [
        {
          fault: 'slow',
          delayMs: 8_000,
          chunks: [geminiChunk([{ text: 'first ' }], { last: false }), geminiChunk([{ text: 'never' }])],
        },
      ],
    });
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock.url) });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      const answer = kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'talk' }],
      });
      await kodo.waitForUpdate((update) => update.sessionUpdate === 'agent_message_chunk');
      const started = Date.now();
      await kodo.agent.notify('session/cancel', { sessionId });
      expect((await answer).stopReason).toBe('cancelled');
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(agentText(kodo.updates)).not.toContain('never');
    } finally {
      await kodo.close();
      await mock.close();
    }
  });

  it('session/close during a turn stops it as cancel does; the session is gone afterwards', async () => {
    const mock = await startGeminiMock({
      script: [
        {
          fault: 'slow',
          delayMs: 8_000,
          chunks: [geminiChunk([{ text: 'first ' }], { last: false }), geminiChunk([{ text: 'never' }])],
        },
      ],
    });
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock.url) });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      const answer = kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'talk' }],
      });
      await kodo.waitForUpdate((update) => update.sessionUpdate === 'agent_message_chunk');
      const started = Date.now();
      await kodo.agent.request('session/close', { sessionId });
      expect((await answer).stopReason).toBe('cancelled');
      expect(Date.now() - started).toBeLessThan(4_000);
      await expect(
        kodo.agent.request('session/set_mode', { sessionId, modeId: 'yolo' }),
      ).rejects.toMatchObject({ code: -32002 });
    } finally {
      await kodo.close();
      await mock.close();
    }
  });

  it('loads a recorded session, replaying it before the answer', async () => {
    const first = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', fixture('write-file.jsonl')],
    });
    let sessionId: string;
    try {
      await first.initialize();
      ({ sessionId } = await first.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] }));
      await first.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
      await first.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'create the notes' }],
      });
    } finally {
      await first.close();
    }
    const second = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', fixture('text-only.jsonl')],
    });
    try {
      await second.initialize();
      await second.agent.request('session/load', { sessionId, cwd: dirs.workspace, mcpServers: [] });
      // Everything replayed had arrived when the answer did.
      const replayed = second.updates.filter((notification) => notification.sessionId === sessionId);
      expect(kinds(replayed).slice(0, 4)).toEqual([
        'user_message_chunk',
        'agent_message_chunk',
        'tool_call',
        'agent_message_chunk',
      ]);
      const user = replayed[0]!.update as acp.ContentChunk;
      expect(user.content).toEqual({ type: 'text', text: 'create the notes' });
      expect(replayed[2]!.update).toMatchObject({ kind: 'edit', status: 'completed' });
      expect(agentText(replayed)).toBe('Creating the file.Wrote notes/hello.txt.');
      // The loaded session goes on.
      const answer = await second.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'hi' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      await expect(
        second.agent.request('session/load', {
          sessionId: 'no-such-session',
          cwd: dirs.workspace,
          mcpServers: [],
        }),
      ).rejects.toMatchObject({ code: -32002 });
    } finally {
      await second.close();
    }
  });

  it('answers protocol errors with protocol codes: unknown session, relative cwd, missing key', async () => {
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home },
    });
    try {
      await kodo.initialize();
      await expect(
        kodo.agent.request('session/prompt', { sessionId: 'nope', prompt: [{ type: 'text', text: 'x' }] }),
      ).rejects.toMatchObject({ code: -32002 });
      await expect(
        kodo.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] }),
      ).rejects.toMatchObject({
        code: -32602,
      });
      await expect(
        kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] }),
      ).rejects.toMatchObject({
        code: -32000,
      });
      // With a key sent through authenticate, the session starts.
      await kodo.agent.request('authenticate', { methodId: 'api-key', _meta: { apiKey: 'from-editor' } });
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(kodo.stderr()).not.toContain('from-editor');
    } finally {
      await kodo.close();
    }
  });

  it('a provider failure is a JSON-RPC internal error (-32603) carrying the HTTP status as data, never as the code', async () => {
    const mock = await startGeminiMock({
      script: [{ fault: 'status', status: 400, message: 'Bad request body' }],
    });
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock.url) });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      const failure = await kodo.agent
        .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })
        .then(
          () => undefined,
          (error: unknown) => error as { code: number; data?: { httpStatus?: number }; message: string },
        );
      expect(failure?.code).toBe(-32603);
      expect(failure?.data?.httpStatus).toBe(400);
      // The session survives the failure and answers the next prompt's protocol checks as before.
      await expect(
        kodo.agent.request('session/set_mode', { sessionId, modeId: 'nope' }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await kodo.close();
      await mock.close();
    }
  });
});
