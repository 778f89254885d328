/**
 * Context-window discovery for local servers, against the OpenAI mock answering what each
 * server says about itself: llama.cpp's `/props`, vLLM's `/v1/models`, Ollama's `/api/show` and
 * `/api/ps`. Asked once per model, never for cloud providers; the warnings for a window smaller
 * than kodo's request and for a prompt the server cut come once each, with that server's fix.
 */
import { openaiTextReply, startOpenAIMock } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../src/contracts/messages';
import {
  windowFromLlamaProps,
  windowFromModelList,
  windowFromOllamaPs,
  windowFromOllamaShow,
} from '../../src/llm/providers/context-discovery';
import { estimateRequestTokens } from '../../src/llm/providers/context-guard';
import { type ProviderProfileSettings, ProviderResolver } from '../../src/llm/providers/registry';
import { ProviderRouter } from '../../src/llm/providers/router';

type Mock = Awaited<ReturnType<typeof startOpenAIMock>>;
const mocks: Mock[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.close();
});

const signal = () => new AbortController().signal;
const LLAMA_PROPS = { default_generation_settings: { n_ctx: 4096, params: {} }, total_slots: 1 };
const OLLAMA_SHOW = {
  parameters: 'stop "<|im_end|>"\nnum_ctx 2048',
  model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 },
};

async function mockWith(routes: Parameters<typeof startOpenAIMock>[0] extends infer O ? O : never) {
  const mock = await startOpenAIMock(routes);
  mocks.push(mock);
  return mock;
}

function router(options: {
  model: string;
  env?: NodeJS.ProcessEnv;
  profiles?: Record<string, ProviderProfileSettings>;
  warnings?: string[];
}) {
  const env = options.env ?? {};
  const resolver = new ProviderResolver({ env, profiles: options.profiles });
  return new ProviderRouter({
    resolver,
    env,
    defaultModel: options.model,
    onWarning: (message) => options.warnings?.push(message),
  });
}

/** A request of about `tokens` tokens by kodo's estimate. */
function requestOf(model: string, tokens: number): GenerateRequest {
  return {
    model,
    systemInstruction: 'x'.repeat(tokens * 4),
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
  };
}

async function send(r: ProviderRouter, request: GenerateRequest) {
  for await (const _chunk of r.generateContentStream(request, signal())) {
    // drain
  }
}

const probes = (mock: Mock) => mock.otherRequests;

describe('what each server says', () => {
  it('reads llama.cpp props, vLLM and llama.cpp model lists, Ollama show and ps', () => {
    expect(windowFromLlamaProps(LLAMA_PROPS)).toBe(4096);
    expect(windowFromLlamaProps({ error: 'no' })).toBeUndefined();
    expect(windowFromModelList({ data: [{ id: 'q', max_model_len: 16384 }] }, 'q')).toEqual({
      server: 'vllm',
      contextWindow: 16384,
    });
    expect(windowFromModelList({ data: [{ id: '/m.gguf', meta: { n_ctx: 8192 } }] }, 'tiny')).toEqual({
      server: 'llama.cpp',
      contextWindow: 8192,
    });
    expect(windowFromModelList({ data: [{ id: 'a' }, { id: 'b', max_model_len: 1 }] }, 'c')).toBeUndefined();
    expect(windowFromOllamaShow(OLLAMA_SHOW)).toEqual({ numCtx: 2048, trained: 32768 });
    expect(windowFromOllamaShow({ parameters: '', model_info: {} })).toEqual({});
    const ps = { models: [{ name: 'qwen3:latest', model: 'qwen3:latest', context_length: 4096 }] };
    expect(windowFromOllamaPs(ps, 'qwen3')).toBe(4096);
    expect(windowFromOllamaPs(ps, 'llama3')).toBeUndefined();
  });

  it('estimates the whole request: system prompt, messages and tool declarations', () => {
    const bare = estimateRequestTokens(requestOf('m', 1000));
    const withTools = estimateRequestTokens({
      ...requestOf('m', 1000),
      tools: [{ name: 't', description: 'd'.repeat(4000), parametersJsonSchema: {} }],
    });
    expect(bare).toBeGreaterThanOrEqual(1000);
    expect(withTools - bare).toBeGreaterThanOrEqual(1000);
  });

  it('counts exactly the serialised characters, measuring each message once across requests', () => {
    const contents = [
      { role: 'user' as const, parts: [{ text: 'héllo "quoted"\n' }] },
      {
        role: 'model' as const,
        parts: [{ functionCall: { name: 'read_file', args: { file_path: 'a.ts' } } }],
      },
    ];
    const tools = [{ name: 't', description: 'd', parametersJsonSchema: { type: 'object' } }];
    const request = { model: 'm', contents, systemInstruction: 'sys', tools };
    const exact = Math.ceil(
      (JSON.stringify(contents).length + 'sys'.length + JSON.stringify(tools).length) / 4,
    );
    expect(estimateRequestTokens(request)).toBe(exact);
    // The next turn's request holds the same message objects plus a new one.
    const next = [...contents, { role: 'user' as const, parts: [{ text: 'more' }] }];
    expect(estimateRequestTokens({ ...request, contents: next })).toBe(
      Math.ceil((JSON.stringify(next).length + 3 + JSON.stringify(tools).length) / 4),
    );
    expect(estimateRequestTokens({ model: 'm', contents: [] })).toBe(1);
  });
});

describe('discovery through the router', () => {
  it('llama.cpp: GET /props once per model, at setup, and the window is known afterwards', async () => {
    const mock = await mockWith({
      routes: { 'GET /props': LLAMA_PROPS },
      script: [{ chunks: openaiTextReply('a') }],
    });
    const r = router({ model: 'local:tiny', profiles: { local: { type: 'openai', baseUrl: mock.url } } });
    expect(await r.contextWindows.discover('local:tiny', signal())).toBe(4096);
    expect(await r.contextWindows.discover('local:tiny', signal())).toBe(4096);
    await send(r, requestOf('local:tiny', 10));
    expect(r.contextWindows.known('local:tiny')).toBe(4096);
    expect(probes(mock).map((p) => `${p.method} ${p.path}`)).toEqual(['GET /props']);
  });

  it('vLLM: /props is missing, /v1/models has max_model_len', async () => {
    const mock = await mockWith({
      routes: { 'GET /v1/models': { object: 'list', data: [{ id: 'qwen', max_model_len: 12288 }] } },
    });
    const r = router({ model: 'vllm:qwen', profiles: { vllm: { type: 'openai', baseUrl: mock.url } } });
    expect(await r.contextWindows.discover('vllm:qwen', signal())).toBe(12288);
  });

  it("Ollama: the Modelfile's num_ctx, or the loaded model's context from /api/ps", async () => {
    const mock = await mockWith({
      routes: {
        'POST /api/show': OLLAMA_SHOW,
        'GET /api/ps': { models: [{ name: 'other:latest', context_length: 9999 }] },
      },
    });
    const r = router({ model: 'ollama:qwen2.5', env: { OLLAMA_BASE_URL: mock.url } });
    expect(await r.contextWindows.discover('ollama:qwen2.5', signal())).toBe(2048);
    const show = mock.otherRequests.find((p) => p.path === '/api/show');
    expect(show?.body).toEqual({ model: 'qwen2.5' });
  });

  it('Ollama: a model not loaded and without num_ctx is asked again once it has answered', async () => {
    let loaded = false;
    const mock = await mockWith({
      routes: {
        'POST /api/show': {
          parameters: '',
          model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 },
        },
        'GET /api/ps': () => ({ models: loaded ? [{ name: 'qwen2.5:latest', context_length: 4096 }] : [] }),
      },
      script: [{ chunks: openaiTextReply('a') }],
    });
    const r = router({ model: 'ollama:qwen2.5', env: { OLLAMA_BASE_URL: mock.url } });
    expect(await r.contextWindows.discover('ollama:qwen2.5', signal())).toBeUndefined();
    loaded = true;
    await send(r, requestOf('ollama:qwen2.5', 10));
    expect(await r.contextWindows.discover('ollama:qwen2.5', signal())).toBe(4096);
  });

  it('a profile’s contextWindow wins over what the server says', async () => {
    const mock = await mockWith({ routes: { 'GET /props': LLAMA_PROPS } });
    const profiles = { local: { type: 'openai', baseUrl: mock.url, contextWindow: 65536 } };
    const r = router({ model: 'local:tiny', profiles });
    expect(await r.contextWindows.discover('local:tiny', signal())).toBe(65536);
    expect(r.contextWindows.known('local:tiny')).toBe(65536);
  });

  it('cloud providers are never asked, and a silent server means "unknown"', async () => {
    const mock = await mockWith({ script: [{ chunks: openaiTextReply('a') }] });
    const cloud = router({ model: 'gemini-2.5-pro', env: { GEMINI_API_KEY: 'k' } });
    expect(await cloud.contextWindows.discover('gemini-2.5-pro', signal())).toBeUndefined();
    expect(await cloud.contextWindows.discover('openrouter:x', signal())).toBeUndefined();
    const resolver = new ProviderResolver({ env: { OPENAI_API_KEY: 'k' } });
    expect(resolver.resolve('openai:gpt-5').connection).not.toHaveProperty('discovery');
    expect(resolver.resolve('anthropic:claude-sonnet-4-5').connection).not.toHaveProperty('discovery');
    const silent = router({
      model: 'local:tiny',
      profiles: { local: { type: 'openai', baseUrl: mock.url } },
    });
    expect(await silent.contextWindows.discover('local:tiny', signal())).toBeUndefined();
    await send(silent, requestOf('local:tiny', 10));
    expect(mock.requests).toHaveLength(1);
    expect(mock.otherRequests.length).toBeGreaterThan(0);
  });
});

describe('warnings', () => {
  it('says once, with -c, when the request is larger than llama-server’s window', async () => {
    const mock = await mockWith({
      routes: { 'GET /props': { default_generation_settings: { n_ctx: 2048 } } },
      script: [{ chunks: openaiTextReply('a') }, { chunks: openaiTextReply('b') }],
    });
    const warnings: string[] = [];
    const r = router({
      model: 'local:tiny',
      profiles: { local: { type: 'openai', baseUrl: mock.url } },
      warnings,
    });
    await send(r, requestOf('local:tiny', 3000));
    await send(r, requestOf('local:tiny', 3000));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/larger than the 2048-token context window llama-server gives local:tiny/);
    expect(warnings[0]).toContain('-c 16384');
  });

  it('says so too when the request leaves little room for the answer', async () => {
    const mock = await mockWith({
      routes: { 'GET /props': LLAMA_PROPS },
      script: [{ chunks: openaiTextReply('a') }],
    });
    const warnings: string[] = [];
    const r = router({
      model: 'local:tiny',
      profiles: { local: { type: 'openai', baseUrl: mock.url } },
      warnings,
    });
    await send(r, requestOf('local:tiny', 3500));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('leaves little room for an answer in the 4096-token context window');
  });

  it('says nothing when the request fits', async () => {
    const mock = await mockWith({
      routes: { 'GET /props': LLAMA_PROPS },
      script: [{ chunks: openaiTextReply('a') }],
    });
    const warnings: string[] = [];
    const r = router({
      model: 'local:tiny',
      profiles: { local: { type: 'openai', baseUrl: mock.url } },
      warnings,
    });
    await send(r, requestOf('local:tiny', 2000));
    expect(warnings).toEqual([]);
  });

  it('Ollama cutting the prompt: the reported prompt tokens are far below the estimate, near the window', async () => {
    const usage = { prompt_tokens: 2040, completion_tokens: 3, total_tokens: 2043 };
    const mock = await mockWith({
      routes: { 'POST /api/show': OLLAMA_SHOW, 'GET /api/ps': { models: [] } },
      script: [{ chunks: openaiTextReply('a', { usage }) }, { chunks: openaiTextReply('b', { usage }) }],
    });
    const warnings: string[] = [];
    const r = router({ model: 'ollama:qwen2.5', env: { OLLAMA_BASE_URL: mock.url }, warnings });
    await send(r, requestOf('ollama:qwen2.5', 5000));
    await send(r, requestOf('ollama:qwen2.5', 5000));
    const cut = warnings.filter((w) => w.includes('probably cut'));
    expect(cut).toHaveLength(1);
    expect(cut[0]).toContain('counted 2040 prompt tokens');
    expect(cut[0]).toContain('OLLAMA_CONTEXT_LENGTH=16384');
    expect(cut[0]).toContain('num_ctx');
  });

  it('with no window known: a first count far below the estimate is a cut, a tiny one is not judged', async () => {
    const cut = { prompt_tokens: 3900, completion_tokens: 3, total_tokens: 3903 };
    const odd = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
    const silent = await mockWith({ script: [{ chunks: openaiTextReply('a', { usage: cut }) }] });
    const other = await mockWith({ script: [{ chunks: openaiTextReply('a', { usage: odd }) }] });
    const warnings: string[] = [];
    const profiles = {
      a: { type: 'openai', baseUrl: silent.url },
      b: { type: 'openai', baseUrl: other.url },
    };
    await send(router({ model: 'a:m', profiles, warnings }), requestOf('a:m', 8000));
    await send(router({ model: 'b:m', profiles, warnings }), requestOf('b:m', 8000));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('counted 3900 prompt tokens');
    expect(warnings[0]).toMatch(/give the model a larger context on the server/i);
  });

  it('no truncation warning when the counts agree, or a later small count (a prompt cache)', async () => {
    const agree = { prompt_tokens: 4800, completion_tokens: 3, total_tokens: 4803 };
    const cached = { prompt_tokens: 300, completion_tokens: 3, total_tokens: 303 };
    const mock = await mockWith({
      routes: { 'GET /props': { default_generation_settings: { n_ctx: 32768 } } },
      script: [
        { chunks: openaiTextReply('a', { usage: agree }) },
        { chunks: openaiTextReply('b', { usage: cached }) },
      ],
    });
    const warnings: string[] = [];
    const r = router({
      model: 'local:tiny',
      profiles: { local: { type: 'openai', baseUrl: mock.url } },
      warnings,
    });
    await send(r, requestOf('local:tiny', 5000));
    await send(r, requestOf('local:tiny', 5000));
    expect(warnings).toEqual([]);
  });
});
