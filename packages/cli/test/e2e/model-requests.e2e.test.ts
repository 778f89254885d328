import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  anthropicTextReply,
  geminiChunk,
  responsesReply,
  runKodo,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIResponsesMock,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { startAcpKodo } from './acp-harness';
import { e2eDirs, geminiMockEnv } from './helpers';

/**
 * The built kodo's effort setting and thoughts end to end: `--effort` (a bad value is exit 42),
 * `model.effort` in settings, what reaches each mock, and thoughts in stream-json (Gemini CLI's
 * subject) and over ACP (`agent_thought_chunk`).
 */
const dirs = e2eDirs();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Json = Record<string, unknown>;

const events = (stdout: string): Json[] =>
  stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Json);

/** User settings: `KODO_HOME` is kodo's own folder. */
function writeSettings(settings: Json): void {
  writeFileSync(join(dirs.home, 'settings.json'), JSON.stringify(settings));
}

const THOUGHT_REPLY = [
  geminiChunk([{ text: '**Weighing it**\nfirst this', thought: true }], { last: false }),
  geminiChunk([{ text: 'Answer.' }]),
];

describe('effort and thoughts in the built kodo', () => {
  it('an unknown --effort is a usage error, exit 42', async () => {
    const result = await runKodo(['-p', 'hi', '--effort', 'extreme'], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home },
    });
    expect(result.code).toBe(42);
    expect(result.stderr).toContain(
      'Invalid value for --effort: "extreme" (choices: off, low, medium, high, max)',
    );
  });

  it('--effort off reaches Gemini as budget 0; thoughts stream as stream-json thought events', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: THOUGHT_REPLY }] });
    closers.push(() => mock.close());
    const result = await runKodo(
      ['-p', 'hi', '-m', 'gemini-2.5-flash', '--effort', 'off', '-o', 'stream-json'],
      {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
      },
    );
    expect(result.code).toBe(0);
    expect((mock.requests[0]!.body as Json).generationConfig).toMatchObject({
      temperature: 1,
      thinkingConfig: { thinkingBudget: 0 },
    });
    const thought = events(result.stdout).find((event) => event.type === 'thought');
    expect(thought).toMatchObject({
      content: '**Weighing it**\nfirst this',
      subject: 'Weighing it',
      delta: true,
    });
  });

  it('model.effort from settings sets the Anthropic budget; --effort wins over it', async () => {
    const mock = await startAnthropicMock({
      script: [{ chunks: anthropicTextReply('a') }, { chunks: anthropicTextReply('b') }],
    });
    closers.push(() => mock.close());
    writeSettings({ model: { effort: 'low' } });
    const env = { KODO_HOME: dirs.home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: mock.url };
    const args = ['-p', 'hi', '-m', 'anthropic:claude-sonnet-4-5'];
    expect((await runKodo(args, { cwd: dirs.workspace, env })).code).toBe(0);
    expect((await runKodo([...args, '--effort', 'high'], { cwd: dirs.workspace, env })).code).toBe(0);
    const [fromSettings, fromFlag] = mock.requests.map((r) => r.body as Json);
    expect(fromSettings!.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(fromFlag!.thinking).toEqual({ type: 'enabled', budget_tokens: 31999 });
    // kodo declares tools, so interleaved thinking is asked for.
    expect(mock.requests[0]!.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
  });

  it('an OpenAI model on the Responses API: reasoning summaries are thoughts, the session id the cache key', async () => {
    const mock = await startOpenAIResponsesMock({
      script: [
        { chunks: responsesReply({ reasoning: { summary: ['**Plan**'], encrypted: 'E' }, text: 'ok' }) },
      ],
    });
    closers.push(() => mock.close());
    writeSettings({ providers: { openai: { baseUrl: mock.url, wireApi: 'responses' } } });
    const result = await runKodo(
      [
        '-p',
        'hi',
        '-m',
        'openai:gpt-5',
        '-o',
        'stream-json',
        '--session-id',
        'sess-42',
        '--approval-mode',
        'auto_edit',
      ],
      { cwd: dirs.workspace, env: { KODO_HOME: dirs.home, OPENAI_API_KEY: 'k' } },
    );
    expect(result.code).toBe(0);
    const body = mock.requests[0]!.body as Json;
    expect(body).toMatchObject({
      reasoning: { effort: 'medium', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'sess-42',
    });
    const tools = (body.tools as Json[]).map((tool) => `${tool.type}:${tool.name}`);
    expect(tools).toContain('custom:apply_patch');
    expect(tools).toContain('function:replace');
    expect(events(result.stdout).find((event) => event.type === 'thought')).toMatchObject({
      content: '**Plan**',
      subject: 'Plan',
    });
  });

  it('over ACP, thoughts are agent_thought_chunk updates', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: THOUGHT_REPLY }] });
    closers.push(() => mock.close());
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock.url) });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'think' }] });
      const thought = kodo.updates
        .map(({ update }) => update)
        .find((update) => update.sessionUpdate === 'agent_thought_chunk');
      expect(thought).toMatchObject({ content: { type: 'text', text: '**Weighing it**\nfirst this' } });
    } finally {
      await kodo.close();
    }
  });
});
