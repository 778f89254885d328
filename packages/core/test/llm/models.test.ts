import { describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../src/llm/catalogue';
import type { ModelCatalogue } from '../../src/llm/model-info';
import { withOverride } from '../../src/llm/model-overrides';
import { costOf, findModel, priceOf } from '../../src/llm/models';

// A catalogue of the test's own, in the generated format (scripts/catalogue/format.mjs), so the
// lookups and the arithmetic are checked independently of what the real data says this month.
const ENTRIES = parseCatalogue(`
anthropic|claude-sonnet-4-5|claude-sonnet|200000|64000|rit|3|15|0.3|3.75|200000|6|22.5|0.6|7.5
gemini|gemini-2.5-pro|gemini-pro|1048576|65536|rit|1.25|10|0.125||200000|2.5|15|0.25
openai|gpt-5|gpt|400000|128000|ritR|1.25|10|0.125
openai|gpt-5-mini|gpt-mini|400000|128000|ritR|0.25|2|0.025
openai|gpt-free-trial|gpt-free-trial|8000|1000|t
bogus|x|x|1|1
`);
const catalogue: ModelCatalogue = { info: (model) => findModel(ENTRIES, model) };

describe('the catalogue format', () => {
  it('reads every field of a line, and skips lines of unknown providers', () => {
    expect(ENTRIES.map((entry) => entry.id)).toEqual([
      'claude-sonnet-4-5',
      'gemini-2.5-pro',
      'gpt-5',
      'gpt-5-mini',
      'gpt-free-trial',
    ]);
    expect(ENTRIES[0]).toEqual({
      id: 'claude-sonnet-4-5',
      provider: 'anthropic',
      family: 'claude-sonnet',
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      reasoning: true,
      images: true,
      tools: true,
      responsesApi: false,
      price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      longContext: { above: 200_000, price: { input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 } },
    });
    expect(ENTRIES[2]?.responsesApi).toBe(true);
    // No prices listed: no price, rather than a free model.
    expect(ENTRIES[4]?.price).toBeUndefined();
  });
});

describe('model lookup', () => {
  it('matches dated snapshots but not other models of the family', () => {
    expect(catalogue.info('claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5');
    expect(catalogue.info('openai:gpt-5-mini')?.id).toBe('gpt-5-mini');
    expect(catalogue.info('gpt-5-2025-08-07')?.id).toBe('gpt-5');
    expect(catalogue.info('openrouter:anthropic/claude-sonnet-4.5')?.id).toBe('claude-sonnet-4-5');
    expect(catalogue.info('gpt-5-codex')).toBeUndefined();
    expect(catalogue.info('gpt-5')?.contextWindow).toBe(400_000);
  });
});

describe('costOf and priceOf', () => {
  it('prices tokens per model, cache reads and writes and long prompts included', () => {
    // 100k fresh input at $3/M + 1M output at $15/M.
    expect(
      costOf('anthropic:claude-sonnet-4-5', { prompt: 100_000, candidates: 1_000_000 }, catalogue),
    ).toBeCloseTo(15.3);
    // 100k written to the cache at $3.75/M, 100k read from it at $0.30/M.
    expect(
      costOf('claude-sonnet-4-5', { prompt: 200_000, cached: 100_000, cacheWrite: 100_000 }, catalogue),
    ).toBeCloseTo(0.375 + 0.03);
    // Cached tokens at $0.125/M, reasoning billed as output ($10/M).
    expect(
      costOf('gpt-5', { prompt: 2_000_000, cached: 1_000_000, thoughts: 100_000 }, catalogue),
    ).toBeCloseTo(1.25 + 0.125 + 1);
    // A 300k-token Gemini 2.5 Pro prompt costs the long-context rate ($2.50/M).
    expect(costOf('gemini-2.5-pro', { prompt: 300_000 }, catalogue)).toBeCloseTo(0.75);
  });

  it('says undefined for a model without a known price, and 0 for a local server', () => {
    expect(costOf('mystery-model', { prompt: 10 }, catalogue)).toBeUndefined();
    expect(priceOf('gpt-free-trial', catalogue)).toBeUndefined();
    expect(costOf('ollama:qwen3-coder', { prompt: 10_000 }, catalogue)).toBe(0);
  });
});

describe('model overrides', () => {
  const base = ENTRIES[2];

  it('win field by field and say which fields they set', () => {
    const info = withOverride(
      base,
      { contextWindow: 272_000, price: { cacheRead: 0.1 }, images: false },
      { provider: 'openai', id: 'gpt-5' },
    );
    expect(info).toMatchObject({
      contextWindow: 272_000,
      maxOutputTokens: 128_000,
      images: false,
      reasoning: true,
      price: { input: 1.25, output: 10, cacheRead: 0.1 },
      overridden: ['contextWindow', 'images', 'price'],
    });
    expect(base?.contextWindow).toBe(400_000);
  });

  it('describe a model the catalogue does not know; a price needs input and output', () => {
    const local = { provider: 'local', id: 'qwen3-coder' };
    expect(withOverride(undefined, { contextWindow: 32_768, price: { input: 0, output: 0 } }, local)).toEqual(
      {
        id: 'qwen3-coder',
        provider: 'local',
        contextWindow: 32_768,
        reasoning: false,
        images: false,
        tools: true,
        responsesApi: false,
        price: { input: 0, output: 0 },
        overridden: ['contextWindow', 'price'],
      },
    );
    expect(withOverride(undefined, { price: { input: 1 } }, local)).toBeUndefined();
  });

  it('replace the long-context price along with the price', () => {
    const info = withOverride(ENTRIES[0], { price: { input: 2 } }, { provider: 'anthropic', id: 'x' });
    expect(info?.longContext).toBeUndefined();
    const overridden: ModelCatalogue = { info: () => info };
    expect(costOf('anthropic:x', { prompt: 300_000 }, overridden)).toBeCloseTo(0.6);
  });
});
