import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { startAcpKodo } from './acp-harness';
import { writeScript } from './acp-script';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();
const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', name);
const env = () => ({ KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, GEMINI_API_KEY: 'test-key' });

function updatesOf<Kind extends acp.SessionUpdate['sessionUpdate']>(
  updates: readonly acp.SessionNotification[],
  kind: Kind,
): Extract<acp.SessionUpdate, { sessionUpdate: Kind }>[] {
  return updates
    .map(({ update }) => update)
    .filter(
      (update): update is Extract<acp.SessionUpdate, { sessionUpdate: Kind }> =>
        update.sessionUpdate === kind,
    );
}

function currentValue(options: readonly acp.SessionConfigOption[] | null | undefined, id: string): unknown {
  const option = options?.find((candidate) => candidate.id === id);
  return option && 'currentValue' in option ? option.currentValue : undefined;
}

describe('kodo --acp sessions', () => {
  it('lists, closes, resumes without replay and deletes recorded sessions; titles them from the first prompt', async () => {
    const script = writeScript(dirs.root, 'answers.jsonl', [
      [{ text: 'First answer.' }],
      [{ text: 'Second.' }],
    ]);
    const first = startAcpKodo({ cwd: dirs.workspace, env: env(), args: ['--fake-responses', script] });
    let sessionId: string;
    try {
      const init = await first.initialize();
      expect(init.agentCapabilities?.sessionCapabilities).toEqual({
        list: {},
        resume: {},
        close: {},
        delete: {},
      });
      expect(init.agentCapabilities?.auth).toEqual({ logout: {} });
      ({ sessionId } = await first.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] }));
      await first.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'explain   the\nbuild' }],
      });
      const [info] = updatesOf(first.updates, 'session_info_update');
      expect(info?.title).toBe('explain the build');
      expect(Date.parse(info?.updatedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
      // Listed for its folder, and for kodo's own folder when the client names none.
      const listed = await first.agent.request('session/list', { cwd: dirs.workspace });
      expect(listed.sessions).toEqual([
        expect.objectContaining({ sessionId, cwd: dirs.workspace, title: 'explain the build' }),
      ]);
      expect(listed.nextCursor).toBeUndefined();
      expect((await first.agent.request('session/list', {})).sessions.map((s) => s.sessionId)).toEqual([
        sessionId,
      ]);
      await expect(first.agent.request('session/list', { cursor: 'not-a-cursor' })).rejects.toMatchObject({
        code: -32602,
      });
      // Closed: the session is gone from this process (its recording stays).
      await first.agent.request('session/close', { sessionId });
      await expect(
        first.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'more' }] }),
      ).rejects.toMatchObject({ code: -32002 });
    } finally {
      await first.close();
    }
    const second = startAcpKodo({ cwd: dirs.workspace, env: env(), args: ['--fake-responses', script] });
    try {
      await second.initialize();
      const resumed = await second.agent.request('session/resume', { sessionId, cwd: dirs.workspace });
      expect(resumed.modes?.currentModeId).toBe('default');
      // No replay (that is session/load), only the session's title.
      const kinds = second.updates
        .filter((n) => n.sessionId === sessionId)
        .map((n) => n.update.sessionUpdate);
      expect(kinds).not.toContain('user_message_chunk');
      expect(kinds).not.toContain('agent_message_chunk');
      expect(updatesOf(second.updates, 'session_info_update')[0]?.title).toBe('explain the build');
      const answer = await second.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'go on' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      await expect(
        second.agent.request('session/resume', { sessionId: 'no-such-session', cwd: dirs.workspace }),
      ).rejects.toMatchObject({ code: -32002 });
      await second.agent.request('session/delete', { sessionId });
      expect((await second.agent.request('session/list', { cwd: dirs.workspace })).sessions).toEqual([]);
      await expect(
        second.agent.request('session/load', { sessionId, cwd: dirs.workspace, mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32002 });
    } finally {
      await second.close();
    }
  });

  it('offers the approval mode and the model as config options, and announces every change both ways', async () => {
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', fixture('text-only.jsonl')],
    });
    try {
      await kodo.initialize();
      const created = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      const { sessionId } = created;
      expect(created.configOptions?.map((option) => [option.id, option.category])).toEqual([
        ['mode', 'mode'],
        ['model', 'model'],
      ]);
      expect(currentValue(created.configOptions, 'mode')).toBe('default');
      const set = await kodo.agent.request('session/set_config_option', {
        sessionId,
        configId: 'mode',
        value: 'auto_edit',
      });
      expect(currentValue(set.configOptions, 'mode')).toBe('auto_edit');
      expect(updatesOf(kodo.updates, 'current_mode_update').map((u) => u.currentModeId)).toEqual([
        'auto_edit',
      ]);
      await kodo.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
      expect(updatesOf(kodo.updates, 'current_mode_update').map((u) => u.currentModeId)).toEqual([
        'auto_edit',
        'plan',
      ]);
      const optionUpdates = updatesOf(kodo.updates, 'config_option_update');
      expect(optionUpdates.map((u) => currentValue(u.configOptions, 'mode'))).toEqual(['auto_edit', 'plan']);
      const model = created.configOptions?.find((option) => option.id === 'model');
      const other =
        model && 'options' in model
          ? (model.options as acp.SessionConfigSelectOption[]).find(
              (choice) => choice.value !== model.currentValue,
            )
          : undefined;
      expect(other).toBeDefined();
      const switched = await kodo.agent.request('session/set_config_option', {
        sessionId,
        configId: 'model',
        value: other!.value,
      });
      expect(currentValue(switched.configOptions, 'model')).toBe(other!.value);
      for (const bad of [
        { configId: 'mode', value: 'reckless' },
        { configId: 'model', value: 'no-such-model' },
        { configId: 'colour', value: 'red' },
      ]) {
        await expect(
          kodo.agent.request('session/set_config_option', { sessionId, ...bad }),
        ).rejects.toMatchObject({
          code: -32602,
        });
      }
    } finally {
      await kodo.close();
    }
  });

  it('tells the client when the model itself switches to plan mode', async () => {
    const script = writeScript(dirs.root, 'plan.jsonl', [
      [{ functionCall: { name: 'enter_plan_mode', args: { reason: 'a risky change' } } }],
      [{ text: 'Planning now.' }],
    ]);
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: env(), args: ['--fake-responses', script] });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'refactor' }] });
      expect(updatesOf(kodo.updates, 'current_mode_update').map((u) => u.currentModeId)).toEqual(['plan']);
      expect(currentValue(updatesOf(kodo.updates, 'config_option_update')[0]?.configOptions, 'mode')).toBe(
        'plan',
      );
    } finally {
      await kodo.close();
    }
  });

  it('logout forgets the key authenticate gave: the next session needs one again (-32000)', async () => {
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home },
      // No --fake-responses: the real provider needs the key (no request is made).
    });
    try {
      await kodo.initialize();
      await kodo.agent.request('authenticate', { methodId: 'api-key', _meta: { apiKey: 'from-editor' } });
      await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await kodo.agent.request('logout', {});
      await expect(
        kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] }),
      ).rejects.toMatchObject({
        code: -32000,
      });
    } finally {
      await kodo.close();
    }
  });

  it("shows a subagent's calls as tool calls under the invoke_agent call, and its words as that call's progress", async () => {
    mkdirSync(join(dirs.workspace, 'src'), { recursive: true });
    writeFileSync(join(dirs.workspace, 'src/greet.js'), 'export const greeting = "hi";\n');
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: env(),
      args: ['--fake-responses', fixture('subagent.jsonl')],
    });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      const answer = await kodo.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'where is the greeting?' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      const calls = updatesOf(kodo.updates, 'tool_call');
      expect(calls.map((call) => call.kind)).toEqual(['think', 'search']);
      const [parent, child] = calls;
      expect(child!.toolCallId).toBe(`${parent!.toolCallId}/${child!.toolCallId.split('/')[1]}`);
      expect(child!._meta).toEqual({
        kodo: { parentToolCallId: parent!.toolCallId, agent: 'codebase_investigator' },
      });
      const updates = updatesOf(kodo.updates, 'tool_call_update');
      const childEnd = updates.filter((update) => update.toolCallId === child!.toolCallId).at(-1);
      expect(childEnd?.status).toBe('completed');
      const parentUpdates = updates.filter((update) => update.toolCallId === parent!.toolCallId);
      const progress = parentUpdates.find((update) => update.status === undefined && update.content);
      expect(JSON.stringify(progress?.content)).toContain('The greeting is in src/greet.js.');
      expect(parentUpdates.at(-1)?.status).toBe('completed');
      // The subagent's words are not the session's answer.
      const said = updatesOf(kodo.updates, 'agent_message_chunk')
        .map((chunk) => (chunk.content.type === 'text' ? chunk.content.text : ''))
        .join('');
      expect(said).toBe('Asking the investigator.It is defined in src/greet.js.');
    } finally {
      await kodo.close();
    }
  });
});
