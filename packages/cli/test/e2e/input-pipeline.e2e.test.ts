/**
 * Headless input means what it means in the terminal and over ACP (core's input pipeline):
 * `!command`, `/<skill>`, `@file`, and built-in commands that only run in a session.
 */
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { type GeminiMock, geminiTextReply, runKodo, startGeminiMock } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { startAcpKodo } from './acp-harness';
import { e2eDirs, type GeminiRequestBody, geminiMockEnv, writeFileIn } from './helpers';

const dirs = e2eDirs();
let mock: GeminiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const env = () => ({ ...geminiMockEnv(dirs.home, mock?.url), HOME: dirs.home });
const kodo = (args: string[]) => runKodo(args, { cwd: dirs.workspace, env: env(), timeoutMs: 30_000 });
const userText = (index = 0) =>
  (mock!.requests[index]!.body as GeminiRequestBody).contents
    .filter((content) => content.role === 'user')
    .flatMap((content) => content.parts.map((part) => (typeof part.text === 'string' ? part.text : '')))
    .join('\n');
const userSettings = (value: unknown) => writeFileIn(join(dirs.home, 'settings.json'), JSON.stringify(value));

describe('the input pipeline, headless', () => {
  it('!command runs with every check a model call gets: refused unless allowed, then its output is the answer', async () => {
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('never') }] });
    const refused = await kodo(['-p', '!echo from-the-shell']);
    expect(refused.code).toBe(42);
    expect(refused.stderr).toContain("Shell command 'echo from-the-shell' was not run");
    userSettings({ tools: { allowed: ['run_shell_command(echo)'] } });
    const allowed = await kodo(['-p', '!echo from-the-shell']);
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toBe('from-the-shell\n');
    // No model request: the line was the person's command.
    expect(mock.requests).toHaveLength(0);
  });

  it('/<skill> activates the skill and sends its instructions with the request', async () => {
    writeFileIn(
      join(dirs.home, '.gemini', 'skills', 'tidy', 'SKILL.md'),
      '---\nname: tidy\ndescription: Tidy the imports\n---\nSort the imports alphabetically.\n',
    );
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Tidied.') }] });
    const run = await kodo(['-p', '/tidy only src']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(userText()).toContain('Sort the imports alphabetically.');
    expect(userText()).toContain('only src');
  });

  it('attaches @file as the terminal does', async () => {
    writeFileIn(join(dirs.workspace, 'notes.txt'), 'remember the changelog');
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Read.') }] });
    const run = await kodo(['-p', 'summarise @notes.txt']);
    expect(run.code).toBe(0);
    expect(userText()).toContain('Content from @notes.txt:\nremember the changelog');
  });

  it('a built-in session command says where it runs (exit 42, nothing sent)', async () => {
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('never') }] });
    const run = await kodo(['-p', '/compress']);
    expect(run.code).toBe(42);
    expect(run.stderr).toContain('/compress is a session command of the terminal UI and editors (ACP)');
    expect(mock.requests).toHaveLength(0);
  });
});

describe('!command over ACP', () => {
  it('asks the editor, runs it, shows the output, and the next prompt carries it as context', async () => {
    const kodoAcp = await editorSession();
    try {
      const answer = await kodoAcp.prompt('!echo from-the-editor');
      expect(answer.stopReason).toBe('end_turn');
      expect(kodoAcp.permissions).toHaveLength(1);
      expect(mock?.requests).toHaveLength(0);
      // Shown as a tool call, as a model's run_shell_command is: editors display it so.
      const shown = toolCallUpdates(kodoAcp.updates);
      const start = shown.find((update) => update.sessionUpdate === 'tool_call');
      expect(start).toMatchObject({
        kind: 'execute',
        title: expect.stringContaining('echo from-the-editor'),
      });
      const id = start!.toolCallId;
      expect(kodoAcp.permissions[0]!.toolCall.toolCallId).toBe(id);
      const statuses = shown.filter((update) => update.toolCallId === id).map((update) => update.status);
      expect(statuses.filter(Boolean)).toEqual(['pending', 'in_progress', 'completed']);
      expect(JSON.stringify(shown.at(-1)!.content)).toContain('from-the-editor');
      await kodoAcp.prompt('what did it say?');
      expect(userText()).toContain('I ran the following shell command:\n```sh\necho from-the-editor\n```');
      expect(userText()).toContain('from-the-editor');
    } finally {
      expect(await kodoAcp.close()).toBe(0);
    }
  });

  it('a command the editor refuses is a failed tool call, and nothing joins the context', async () => {
    const kodoAcp = await editorSession({ permission: 'cancel' });
    try {
      const answer = await kodoAcp.prompt('!echo never-ran');
      expect(answer.stopReason).toBe('end_turn');
      const shown = toolCallUpdates(kodoAcp.updates);
      expect(shown[0]).toMatchObject({ sessionUpdate: 'tool_call', kind: 'execute' });
      expect(shown.at(-1)).toMatchObject({ toolCallId: shown[0]!.toolCallId, status: 'failed' });
      await kodoAcp.prompt('hello');
      expect(userText()).not.toContain('never-ran');
    } finally {
      expect(await kodoAcp.close()).toBe(0);
    }
  });
});

/**
 * kodo over ACP in the workspace, against a mock that answers once, with one new session: the
 * editor's permission answer is `permission` (the harness's default allows).
 */
async function editorSession(options: { permission?: 'cancel' } = {}) {
  mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Seen.') }] });
  const kodoAcp = startAcpKodo({ cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock.url), ...options });
  try {
    await kodoAcp.initialize();
    const { sessionId } = await kodoAcp.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
    const prompt = (text: string) =>
      kodoAcp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    return Object.assign(kodoAcp, { prompt });
  } catch (error) {
    await kodoAcp.close();
    throw error;
  }
}

type ShownCall = { sessionUpdate: string; toolCallId: string; status?: string | null; content?: unknown };

function toolCallUpdates(updates: readonly acp.SessionNotification[]): ShownCall[] {
  return updates
    .map(({ update }) => update)
    .filter((update) => update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update')
    .map((update) => update as ShownCall);
}
