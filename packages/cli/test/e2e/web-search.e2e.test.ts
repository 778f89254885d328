/**
 * web_search for non-Gemini models through the built `kodo`: the OpenAI mock plays the model,
 * the testkit's search mock plays Brave, Tavily and SearXNG. What goes over the wire to the
 * search API, and what the model gets back, are both checked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AnthropicMock,
  anthropicTextReply,
  anthropicToolUseReply,
  anthropicWebSearchReply,
  geminiTextReply,
  type OpenAIMock,
  openaiTextReply,
  openaiToolCallsReply,
  runKodo,
  type SearchApiMock,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
  startSearchApiMock,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();
let openai: OpenAIMock | undefined;
let search: SearchApiMock | undefined;
beforeEach(() => mkdirSync(join(dirs.workspace, '.kodo')));
afterEach(async () => {
  await openai?.close();
  await search?.close();
  openai = undefined;
  search = undefined;
});

const RESULTS = [
  {
    title: 'kodo 1.0 released',
    url: 'https://news.example/kodo-1',
    snippet: 'The <strong>kodo</strong> agent ships.',
  },
  { title: 'kodo docs', url: 'https://docs.example/kodo', snippet: 'Install with npm.' },
];

const settings = (webSearch: Record<string, unknown>) =>
  writeFileSync(join(dirs.workspace, '.kodo', 'settings.json'), JSON.stringify({ tools: { webSearch } }));

/** One web_search call, then a final answer; returns the function result the model got. */
async function searchOnce(
  env: Record<string, string> = {},
): Promise<{ code: number | null; result: string; error?: string }> {
  openai = await startOpenAIMock({
    script: [
      {
        chunks: openaiToolCallsReply([{ id: 'call_1', name: 'web_search', args: { query: 'kodo release' } }]),
      },
      { chunks: openaiTextReply('Found it.') },
    ],
  });
  const run = await runKodo(['-p', 'search the web for kodo', '-m', 'openai:gpt-test'], {
    cwd: dirs.workspace,
    env: {
      KODO_HOME: dirs.home,
      KODO_TRUST_WORKSPACE: 'true',
      KODO_RETRY_BASE_MS: '5',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.url,
      ...env,
    },
  });
  expect(run.stdout).toBe('Found it.\n');
  const messages = (openai.requests[1]!.body as { messages: { role: string; content: string }[] }).messages;
  const result = messages.find((message) => message.role === 'tool')!.content;
  // A failed call reaches the OpenAI model as `{"error": …}`.
  const error = result.startsWith('{"error"') ? (JSON.parse(result) as { error: string }).error : undefined;
  return { code: run.code, result, ...(error ? { error } : {}) };
}

const EXPECTED = (label: string) =>
  `Web search results for "kodo release" (${label}):\n\n<untrusted_context>\n` +
  '[1] kodo 1.0 released\nhttps://news.example/kodo-1\nThe kodo agent ships.\n\n' +
  '[2] kodo docs\nhttps://docs.example/kodo\nInstall with npm.\n</untrusted_context>\n\n' +
  'Sources:\n[1] kodo 1.0 released (https://news.example/kodo-1)\n[2] kodo docs (https://docs.example/kodo)';

describe('web_search backed by a search API', () => {
  it('Brave: GET with the subscription token from BRAVE_API_KEY; titles, URLs, snippets and sources', async () => {
    search = await startSearchApiMock({ results: RESULTS, apiKey: 'brave-key' });
    settings({ provider: 'brave', baseUrl: search.url, maxResults: 2 });
    const { code, result } = await searchOnce({ BRAVE_API_KEY: 'brave-key' });
    expect(code).toBe(0);
    expect(search.requests).toHaveLength(1);
    expect(search.requests[0]).toMatchObject({
      method: 'GET',
      path: '/res/v1/web/search',
      query: { q: 'kodo release', count: '2' },
    });
    expect(search.requests[0]!.headers['x-subscription-token']).toBe('brave-key');
    expect(result).toBe(EXPECTED('Brave Search'));
  });

  it('Tavily: POST with a bearer key from TAVILY_API_KEY', async () => {
    search = await startSearchApiMock({ results: RESULTS, apiKey: 'tvly-key' });
    settings({ provider: 'tavily', baseUrl: search.url });
    const { result } = await searchOnce({ TAVILY_API_KEY: 'tvly-key' });
    expect(search.requests[0]).toMatchObject({
      method: 'POST',
      path: '/search',
      body: { query: 'kodo release', max_results: 5, search_depth: 'basic' },
    });
    expect(search.requests[0]!.headers.authorization).toBe('Bearer tvly-key');
    expect(result).toBe(EXPECTED('Tavily'));
  });

  it('SearXNG: the instance URL from settings, JSON format, no key', async () => {
    search = await startSearchApiMock({ results: RESULTS });
    settings({ provider: 'searxng', baseUrl: `${search.url}/` });
    const { result } = await searchOnce();
    expect(search.requests[0]).toMatchObject({
      method: 'GET',
      path: '/search',
      query: { q: 'kodo release', format: 'json' },
    });
    expect(result).toBe(EXPECTED('SearXNG'));
  });

  it('a missing key is an error result naming the variable; nothing is sent', async () => {
    search = await startSearchApiMock({ results: RESULTS });
    settings({ provider: 'brave', baseUrl: search.url });
    const { error } = await searchOnce();
    expect(error).toBe(
      'Error during web search for query "kodo release": Brave Search needs an API key: BRAVE_API_KEY is not set.',
    );
    expect(search.requests).toHaveLength(0);
  });

  it('an API error reaches the model as an error result with the status', async () => {
    search = await startSearchApiMock({ status: 429 });
    settings({ provider: 'tavily', baseUrl: search.url });
    const { code, error } = await searchOnce({ TAVILY_API_KEY: 'k' });
    expect(code).toBe(0);
    expect(error).toBe(
      'Error during web search for query "kodo release": Tavily answered HTTP 429: {"error":"mock failure 429"}',
    );
  });
});

describe('web_search through the provider’s own search', () => {
  let anthropic: AnthropicMock | undefined;
  afterEach(async () => {
    await anthropic?.close();
    anthropic = undefined;
  });

  it('Anthropic without a search API: one call with the web_search_20250305 server tool, sources kept', async () => {
    anthropic = await startAnthropicMock({
      script: [
        {
          chunks: anthropicToolUseReply([
            { id: 'toolu_1', name: 'web_search', args: { query: 'kodo release' } },
          ]),
        },
        {
          chunks: anthropicWebSearchReply({
            query: 'kodo release',
            results: [{ title: 'kodo 1.0 released', url: 'https://news.example/kodo-1' }],
            text: 'kodo 1.0 shipped this week.',
          }),
        },
        { chunks: anthropicTextReply('Found it.') },
      ],
    });
    const run = await runKodo(['-p', 'search the web for kodo', '-m', 'anthropic:claude-test'], {
      cwd: dirs.workspace,
      env: {
        KODO_HOME: dirs.home,
        KODO_TRUST_WORKSPACE: 'true',
        ANTHROPIC_API_KEY: 'sk-ant',
        ANTHROPIC_BASE_URL: anthropic.url,
      },
    });
    expect(run.stdout).toBe('Found it.\n');
    expect(run.code).toBe(0);
    type Body = { tools?: Record<string, unknown>[]; messages: { role: string; content: unknown }[] };
    const first = anthropic.requests[0]!.body as Body;
    expect(first.tools!.map((tool) => tool.name)).toContain('web_search');
    const search = anthropic.requests[1]!.body as Body;
    expect(search.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }]);
    expect(search.messages).toMatchObject([
      { role: 'user', content: [{ type: 'text', text: 'kodo release' }] },
    ]);
    const answer = JSON.stringify((anthropic.requests[2]!.body as Body).messages.at(-1)!.content);
    expect(answer).toContain(
      'Web search results for \\"kodo release\\":\\n\\n<untrusted_context>\\nkodo 1.0 shipped this week.\\n\\nSources:\\n[1] kodo 1.0 released (https://news.example/kodo-1)\\n</untrusted_context>',
    );
  });

  it('a Gemini model without a search API is not offered web_search (google_web_search is)', async () => {
    const gemini = await startGeminiMock({ script: [{ chunks: geminiTextReply('hi') }] });
    try {
      const run = await runKodo(['-p', 'hello'], {
        cwd: dirs.workspace,
        env: { ...geminiMockEnv(dirs.home, gemini.url), KODO_TRUST_WORKSPACE: 'true' },
      });
      expect(run.code).toBe(0);
      const body = gemini.requests[0]!.body as { tools: { functionDeclarations: { name: string }[] }[] };
      const names = body.tools[0]!.functionDeclarations.map((tool) => tool.name);
      expect(names).toContain('google_web_search');
      expect(names).not.toContain('web_search');
    } finally {
      await gemini.close();
    }
  });
});
