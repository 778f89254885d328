/**
 * `providers.<name>.modelOverrides` through the router: the session's catalogue, the window it
 * plans with, and Anthropic's `max_tokens` on the wire, all see a model's override.
 */
import { anthropicTextReply, startAnthropicMock } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { modelInfo } from '../../src/llm/models';
import { type ProviderProfileSettings, ProviderResolver } from '../../src/llm/providers/registry';
import { ProviderRouter } from '../../src/llm/providers/router';

const routerFor = (
  env: NodeJS.ProcessEnv,
  profiles: Record<string, ProviderProfileSettings>,
  model: string,
) => new ProviderRouter({ resolver: new ProviderResolver({ env, profiles }), env, defaultModel: model });

describe('model overrides through the router', () => {
  it("apply to the profile's own models and to a built-in provider's, and not to others", () => {
    const router = routerFor(
      { ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k' },
      {
        local: {
          type: 'openai',
          baseUrl: 'http://127.0.0.1:9/v1',
          models: ['qwen3-coder'],
          contextWindow: 16_384,
          modelOverrides: { 'qwen3-coder': { contextWindow: 32_768, price: { input: 0, output: 0 } } },
        },
        anthropic: { modelOverrides: { 'claude-sonnet-4-5': { price: { input: 1 } } } },
      },
      'gemini-2.5-pro',
    );
    expect(router.models.info('local:qwen3-coder')).toMatchObject({
      provider: 'local',
      contextWindow: 32_768,
      price: { input: 0, output: 0 },
    });
    // A model listed by a profile resolves to it without the prefix too.
    expect(router.models.info('qwen3-coder')?.overridden).toEqual(['contextWindow', 'price']);
    // The model's own window wins over the profile's.
    expect(router.contextWindows.known('local:qwen3-coder')).toBe(32_768);
    const sonnet = router.models.info('anthropic:claude-sonnet-4-5');
    expect(sonnet?.price?.input).toBe(1);
    expect(sonnet?.price?.output).toBe(modelInfo('claude-sonnet-4-5')?.price?.output);
    expect(router.models.info('gemini-2.5-pro')?.overridden).toBeUndefined();
  });

  it("Anthropic's max_tokens: the catalogue's limit, or the model's override", async () => {
    const mock = await startAnthropicMock({
      script: [{ chunks: anthropicTextReply('a') }, { chunks: anthropicTextReply('b') }],
    });
    try {
      const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: mock.url };
      const model = 'claude-sonnet-4-5';
      const request = { model, contents: [{ role: 'user' as const, parts: [{ text: 'hi' }] }] };
      const overrides: Record<string, ProviderProfileSettings> = {
        anthropic: { modelOverrides: { [model]: { maxOutputTokens: 2_000 } } },
      };
      for (const profiles of [{}, overrides]) {
        const router = routerFor(env, profiles, model);
        for await (const _chunk of router.generateContentStream(request, new AbortController().signal)) {
          // drain
        }
      }
      const [catalogue, overridden] = mock.requests.map((r) => r.body as { max_tokens: number });
      expect(catalogue?.max_tokens).toBe(modelInfo(model)?.maxOutputTokens);
      expect(overridden?.max_tokens).toBe(2_000);
    } finally {
      await mock.close();
    }
  });
});
