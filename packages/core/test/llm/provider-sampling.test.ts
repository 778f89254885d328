/**
 * Sampling settings reach the wire: `model.temperature` / `model.topP` / `model.topK` (and a
 * provider profile's own values, which win) go out on every provider that takes them, read
 * back from each mock's request log; nothing is sent when nothing is configured, a value the
 * request itself sets wins, and OpenAI's own API never gets `top_k` (it refuses it).
 */
import {
  anthropicTextReply,
  geminiTextReply,
  openaiTextReply,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
} from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../src/contracts/messages';
import type { Effort } from '../../src/llm/effort';
import { toOpenAIRequestBody } from '../../src/llm/providers/openai-convert';
import type { ProviderProfileSettings, SamplingSettings } from '../../src/llm/providers/registry';
import { ProviderResolver } from '../../src/llm/providers/registry';
import { ProviderRouter } from '../../src/llm/providers/router';

type Json = Record<string, unknown>;

const request = (model: string, config?: GenerateRequest['config']): GenerateRequest => ({
  model,
  contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
  ...(config ? { config } : {}),
});

async function send(router: ProviderRouter, req: GenerateRequest): Promise<void> {
  for await (const _chunk of router.generateContentStream(req, new AbortController().signal)) {
    // drain
  }
}

function routerFor(
  env: NodeJS.ProcessEnv,
  model: string,
  options: {
    sampling?: SamplingSettings;
    profiles?: Record<string, ProviderProfileSettings>;
    effort?: Effort;
  } = {},
): ProviderRouter {
  const resolver = new ProviderResolver({
    env,
    profiles: options.profiles,
    sampling: options.sampling,
    effort: options.effort,
  });
  return new ProviderRouter({ resolver, env, defaultModel: model });
}

const SAMPLING = { temperature: 0.3, topP: 0.8, topK: 20 };

describe('sampling settings on the wire', () => {
  it('Gemini: generationConfig carries temperature, topP and topK', async () => {
    const mock = await startGeminiMock({
      script: [{ chunks: geminiTextReply('a') }, { chunks: geminiTextReply('b') }],
    });
    try {
      const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: mock.url };
      await send(routerFor(env, 'gemini-2.5-flash', { sampling: SAMPLING }), request('gemini-2.5-flash'));
      await send(routerFor(env, 'gemini-2.5-flash'), request('gemini-2.5-flash'));
      const [configured, plain] = mock.requests.map((r) => r.body as Json);
      // Configured sampling wins over Gemini CLI's, which go out when nothing is configured.
      const thinkingConfig = { includeThoughts: true, thinkingBudget: 8192 };
      expect(configured?.generationConfig).toEqual({ temperature: 0.3, topP: 0.8, topK: 20, thinkingConfig });
      expect(plain?.generationConfig).toEqual({ temperature: 1, topP: 0.95, topK: 64, thinkingConfig });
    } finally {
      await mock.close();
    }
  });

  it('Anthropic: temperature, top_p and top_k', async () => {
    const mock = await startAnthropicMock({
      script: [{ chunks: anthropicTextReply('a') }, { chunks: anthropicTextReply('b') }],
    });
    try {
      const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: mock.url };
      const model = 'claude-sonnet-4-5';
      // Sampling goes out with thinking off only: the API refuses both together.
      await send(routerFor(env, model, { sampling: SAMPLING, effort: 'off' }), request(model));
      await send(routerFor(env, model), request(model));
      const [configured, plain] = mock.requests.map((r) => r.body as Json);
      expect(configured).toMatchObject({ temperature: 0.3, top_p: 0.8, top_k: 20 });
      expect(plain).toHaveProperty('thinking');
      for (const key of ['temperature', 'top_p', 'top_k']) expect(plain).not.toHaveProperty(key);
    } finally {
      await mock.close();
    }
  });

  it('OpenAI-compatible (Ollama, a profile): temperature, top_p, top_k; the profile wins over model.*', async () => {
    const mock = await startOpenAIMock({
      script: [
        { chunks: openaiTextReply('a') },
        { chunks: openaiTextReply('b') },
        { chunks: openaiTextReply('c') },
      ],
    });
    try {
      const env = { OLLAMA_BASE_URL: mock.url };
      await send(routerFor(env, 'ollama:qwen3', { sampling: SAMPLING }), request('ollama:qwen3'));
      const profiles = { local: { type: 'openai', baseUrl: mock.url, temperature: 0.7, topK: 40 } };
      await send(routerFor({}, 'local:tiny', { sampling: SAMPLING, profiles }), request('local:tiny'));
      await send(routerFor(env, 'ollama:qwen3'), request('ollama:qwen3'));
      const chats = mock.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Json);
      expect(chats[0]).toMatchObject({ temperature: 0.3, top_p: 0.8, top_k: 20 });
      expect(chats[1]).toMatchObject({ temperature: 0.7, top_p: 0.8, top_k: 40 });
      for (const key of ['temperature', 'top_p', 'top_k']) expect(chats[2]).not.toHaveProperty(key);
    } finally {
      await mock.close();
    }
  });

  it("a request's own value wins (a subagent's temperature)", async () => {
    const mock = await startOpenAIMock({ script: [{ chunks: openaiTextReply('a') }] });
    try {
      const router = routerFor({ OLLAMA_BASE_URL: mock.url }, 'ollama:qwen3', { sampling: SAMPLING });
      await send(router, request('ollama:qwen3', { temperature: 0.1 }));
      const chat = mock.requests.find((r) => r.path === '/v1/chat/completions')?.body as Json;
      expect(chat).toMatchObject({ temperature: 0.1, top_p: 0.8 });
    } finally {
      await mock.close();
    }
  });

  it("OpenAI's own API gets temperature and top_p but never top_k", () => {
    const config = { temperature: 0.3, topP: 0.8, topK: 20 };
    const official = toOpenAIRequestBody(request('gpt-5', config), {
      stream: true,
      maxTokensField: 'max_completion_tokens',
      topK: false,
    });
    expect(official).toMatchObject({ temperature: 0.3, top_p: 0.8 });
    expect(official).not.toHaveProperty('top_k');
  });
});
