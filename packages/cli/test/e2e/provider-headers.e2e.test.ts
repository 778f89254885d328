/**
 * Per-provider custom headers (`providers.<name>.headers`, and Claude Code's
 * `ANTHROPIC_CUSTOM_HEADERS` for the Anthropic provider) reach every model request of that
 * provider on each wire family, as the testkit's mocks see them, and their values appear in
 * nothing kodo writes: not its output, not `--debug`'s log, not `--record-responses`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  anthropicTextReply,
  geminiTextReply,
  openaiTextReply,
  type RecordedRequest,
  responsesReply,
  runKodo,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
  startOpenAIResponsesMock,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const SECRET = 'tenant-secret-7f3a';

function writeSettings(settings: Record<string, unknown>): void {
  writeFileSync(join(dirs.home, 'settings.json'), JSON.stringify(settings));
}

const kodo = (args: string[], env: Record<string, string>) =>
  runKodo(['-p', 'hi', ...args], {
    cwd: dirs.workspace,
    env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, KODO_RETRY_BASE_MS: '5', ...env },
  });

/** Every request carried the header; nothing kodo wrote holds its value. */
function expectHeaderSentNotKept(
  requests: readonly RecordedRequest[],
  run: { code: number | null; stdout: string; stderr: string },
): void {
  expect(run.code, run.stderr).toBe(0);
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) expect(request.headers['x-tenant']).toBe(SECRET);
  expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
  const written = readdirSync(dirs.home, { recursive: true, withFileTypes: true }).filter(
    (file) => file.isFile() && file.name !== 'settings.json',
  );
  // --debug's log is among them.
  expect(written.some((file) => file.name.startsWith('debug-'))).toBe(true);
  for (const file of written) {
    const text = readFileSync(join(file.parentPath, file.name), 'utf8');
    expect(text, join(file.parentPath, file.name)).not.toContain(SECRET);
  }
}

describe('per-provider custom headers', () => {
  it('Gemini: providers.gemini.headers on every request, not in the debug log or a recording', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('ok') }] });
    closers.push(() => mock.close());
    writeSettings({ providers: { gemini: { headers: { 'X-Tenant': SECRET } } } });
    const recording = join(dirs.home, 'recording.jsonl');
    const run = await kodo(['--debug', '--record-responses', recording], {
      GEMINI_API_KEY: 'k',
      GOOGLE_GEMINI_BASE_URL: mock.url,
    });
    expectHeaderSentNotKept(mock.requests, run);
    expect(readFileSync(recording, 'utf8')).toContain('ok');
  });

  it('Anthropic: ANTHROPIC_CUSTOM_HEADERS (Claude Code’s, one "Name: value" a line) with the settings’ own', async () => {
    const mock = await startAnthropicMock({ script: [{ chunks: anthropicTextReply('ok') }] });
    closers.push(() => mock.close());
    writeSettings({ providers: { anthropic: { headers: { 'X-Route': 'eu' } } } });
    const run = await kodo(['-m', 'anthropic:claude-test', '--debug'], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: mock.url,
      ANTHROPIC_CUSTOM_HEADERS: `X-Tenant: ${SECRET}\n\nX-Other: two words\n`,
    });
    expectHeaderSentNotKept(mock.requests, run);
    expect(mock.requests[0]!.headers['x-other']).toBe('two words');
    expect(mock.requests[0]!.headers['x-route']).toBe('eu');
    // The key is still kodo's to send.
    expect(mock.requests[0]!.headers['x-api-key']).toBe('k');
  });

  it('OpenAI Chat Completions and the Responses API: a profile’s headers', async () => {
    const chat = await startOpenAIMock({ script: [{ chunks: openaiTextReply('ok') }] });
    closers.push(() => chat.close());
    const responses = await startOpenAIResponsesMock({
      script: [{ chunks: responsesReply({ text: 'ok' }) }],
    });
    closers.push(() => responses.close());
    writeSettings({
      providers: {
        gateway: { type: 'openai', baseUrl: chat.url, wireApi: 'chat', headers: { 'X-Tenant': SECRET } },
        openai: { baseUrl: responses.url, wireApi: 'responses', headers: { 'x-tenant': SECRET } },
      },
    });
    expectHeaderSentNotKept(chat.requests, await kodo(['-m', 'gateway:gpt-test', '--debug'], {}));
    expectHeaderSentNotKept(
      responses.requests,
      await kodo(['-m', 'openai:gpt-5', '--debug'], { OPENAI_API_KEY: 'k' }),
    );
    // Another provider's requests do not carry them.
    const plain = await startOpenAIMock({ script: [{ chunks: openaiTextReply('ok') }] });
    closers.push(() => plain.close());
    writeSettings({
      providers: {
        gateway: { type: 'openai', baseUrl: chat.url, headers: { 'X-Tenant': SECRET } },
        other: { type: 'openai', baseUrl: plain.url },
      },
    });
    expect((await kodo(['-m', 'other:gpt-test', '--debug'], {})).code).toBe(0);
    expect(plain.requests[0]!.headers['x-tenant']).toBeUndefined();
  });

  it('a malformed header is a config error (exit 52) in one line that does not echo the value', async () => {
    const run = await kodo(['-m', 'anthropic:claude-test'], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      ANTHROPIC_CUSTOM_HEADERS: `no-colon-${SECRET}`,
    });
    expect(run.code).toBe(52);
    expect(run.stderr).toContain('ANTHROPIC_CUSTOM_HEADERS: line 1 is not "Name: value"');
    expect(run.stderr).not.toContain(SECRET);
    writeSettings({ providers: { gemini: { headers: { 'x-goog-api-key': SECRET } } } });
    const reserved = await kodo([], { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9' });
    expect(reserved.code).toBe(52);
    expect(reserved.stderr).toContain('is set by kodo itself');
    expect(reserved.stderr).not.toContain(SECRET);
  });
});
