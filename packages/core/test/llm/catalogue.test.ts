import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { catalogueModule } from '../../../../scripts/catalogue/format.mjs';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { parseCatalogueLines, RETIRED, withRetained } from '../../../../scripts/catalogue/retained.mjs';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { familyOf, fromModelsDev, fromNpmSnapshot } from '../../../../scripts/catalogue/sources.mjs';
import { BudgetTracker } from '../../src/agent/budgets';
import { catalogueEntries, parseCatalogue } from '../../src/llm/catalogue';
import { CATALOGUE_SOURCE, CATALOGUE_UPDATED } from '../../src/llm/catalogue.generated';
import { costOf, modelInfo } from '../../src/llm/models';

/**
 * Release CI refreshes the data (`npm run catalogue:refresh`, .ci/release). Past this age the
 * prices of current models are likely wrong and new models missing: the suite fails until
 * someone refreshes, rather than kodo quietly pricing with stale data.
 */
const MAX_AGE_DAYS = 120;
const DAY_MS = 86_400_000;

describe('the generated catalogue', () => {
  it(`is younger than ${MAX_AGE_DAYS} days (run npm run catalogue:refresh)`, () => {
    const age = (Date.now() - Date.parse(`${CATALOGUE_UPDATED}T00:00:00Z`)) / DAY_MS;
    expect(age, `catalogue from ${CATALOGUE_UPDATED} (${CATALOGUE_SOURCE})`).toBeLessThan(MAX_AGE_DAYS);
    expect(age).toBeGreaterThan(-2);
  });

  it('knows current Claude, GPT and Gemini models: windows, limits, capabilities and cache prices', () => {
    for (const spec of ['anthropic:claude-sonnet-5-5', 'openai:gpt-6.2-sol', 'gemini-4-neon']) {
      const info = modelInfo(spec);
      expect(info, spec).toBeDefined();
      expect(info?.contextWindow, spec).toBeGreaterThan(100_000);
      expect(info?.maxOutputTokens, spec).toBeGreaterThan(8_000);
      expect(info?.tools, spec).toBe(true);
      expect(info?.reasoning, spec).toBe(true);
      expect(info?.price?.cacheRead, spec).toBeGreaterThan(0);
      expect(costOf(spec, { prompt: 10_000, cached: 5_000, candidates: 1_000 }), spec).toBeGreaterThan(0);
    }
    expect(modelInfo('openai:gpt-6.2-sol')?.responsesApi).toBe(true);
    expect(modelInfo('claude-sonnet-5-5')?.price?.cacheWrite).toBeGreaterThan(0);
  });

  it('finds a line by its id field only, and dated snapshots by their model', () => {
    expect(modelInfo('gemini-2.5-pro')?.id).toBe('gemini-2.5-pro');
    expect(modelInfo('gpt-5-2025-08-07')?.id).toBe('gpt-5');
    // `gpt` and `claude-sonnet` are families in the data, not models.
    expect(modelInfo('gpt')).toBeUndefined();
    expect(modelInfo('claude-sonnet')).toBeUndefined();
    expect(modelInfo('gpt-5-codex-nonexistent')).toBeUndefined();
  });

  it('lets a dollar budget count what a current model costs', () => {
    const budget = new BudgetTracker({ maxCostUsd: 1 });
    budget.onApiResponse({
      model: 'anthropic:claude-opus-5-5',
      durationMs: 1,
      usage: { promptTokenCount: 50_000, candidatesTokenCount: 2_000, totalTokenCount: 52_000 },
    });
    expect(budget.usage().costUsd).toBeGreaterThan(0);
    expect(budget.usage().unpricedModels).toEqual([]);
  });

  it('holds only the three vendors, each line readable, ids unique per vendor', () => {
    const entries = catalogueEntries();
    expect(entries.length).toBeGreaterThan(50);
    expect(new Set(entries.map((entry) => entry.provider))).toEqual(
      new Set(['anthropic', 'gemini', 'openai']),
    );
    const keys = entries.map((entry) => `${entry.provider}:${entry.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of entries) expect(entry.contextWindow, entry.id).toBeGreaterThan(0);
  });
});

// The refresh script's two sources, on small inputs written in each one's shape.
const MODELS_DEV_API = {
  anthropic: {
    models: {
      'claude-x-1': {
        id: 'claude-x-1',
        family: 'claude-x',
        reasoning: true,
        tool_call: true,
        modalities: { input: ['text', 'image', 'pdf'], output: ['text'] },
        cost: {
          input: 3,
          output: 15,
          cache_read: 0.3,
          cache_write: 3.75,
          context_over_200k: { input: 6, output: 22.5, cache_read: 0.6, cache_write: 7.5 },
        },
        limit: { context: 1_000_000, output: 64_000 },
      },
    },
  },
  openai: {
    models: {
      'gpt-x': {
        id: 'gpt-x',
        reasoning: false,
        tool_call: true,
        modalities: { input: ['text'], output: ['text'] },
        cost: { input: 1, output: 4, cache_read: 0.1 },
        limit: { context: 128_000, output: 16_384 },
      },
      'gpt-x-chat': {
        id: 'gpt-x-chat',
        reasoning: false,
        tool_call: false,
        modalities: { input: ['text'], output: ['text'] },
        limit: { context: 8_000, output: 1_000 },
        provider: { shape: 'completions' },
      },
      'text-embedding-x': {
        id: 'text-embedding-x',
        type: 'embedding',
        modalities: { input: ['text'], output: ['text'] },
        limit: { context: 8_000, output: 0 },
      },
      'gpt-image-x': { id: 'gpt-image-x', modalities: { input: ['text'], output: ['image'] }, limit: {} },
    },
  },
  mistral: { models: { 'mistral-x': { id: 'mistral-x', modalities: { output: ['text'] }, limit: {} } } },
};

const NPM_FILES = {
  google: {
    'google-generative-ai': {
      'chat:gemini-x-pro': {
        id: 'gemini-x-pro',
        reasoning: true,
        input: ['text', 'image'],
        cost: {
          input: 2,
          output: 12,
          cacheRead: 0.2,
          cacheWrite: 0,
          tiers: [{ inputTokensAbove: 200_000, input: 4, output: 18, cacheRead: 0.4, cacheWrite: 0 }],
        },
        contextWindow: 1_048_576,
        maxTokens: 65_536,
      },
    },
  },
  openai: {
    'openai-decisions': { 'classifier:gpt-judge': { id: 'gpt-judge', cost: { input: 1, output: 0 } } },
  },
};

function roundTrip(records: unknown[]) {
  const module: string = catalogueModule(records, { updated: '2026-11-20', source: 'test' });
  const lines = /CATALOGUE_LINES = `([^`]*)`/.exec(module)?.[1] ?? '';
  return parseCatalogue(lines);
}

describe('the refresh script', () => {
  it("reads models.dev's api.json: chat models of the three vendors, cache and long-context prices", () => {
    const entries = roundTrip(fromModelsDev(MODELS_DEV_API));
    expect(entries.map((entry) => entry.id)).toEqual(['claude-x-1', 'gpt-x', 'gpt-x-chat']);
    expect(entries[0]).toMatchObject({
      provider: 'anthropic',
      family: 'claude-x',
      contextWindow: 1_000_000,
      maxOutputTokens: 64_000,
      reasoning: true,
      images: true,
      tools: true,
      price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      longContext: { above: 200_000, price: { input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 } },
    });
    expect(entries[1]).toMatchObject({ family: 'gpt-x', responsesApi: true, images: false });
    expect(entries[1]?.price).toEqual({ input: 1, output: 4, cacheRead: 0.1 });
    expect(entries[2]).toMatchObject({ tools: false, responsesApi: false });
    expect(entries[2]?.price).toBeUndefined();
  });

  it("reads the npm package's snapshot; a zero cache-write price next to a real input price is none", () => {
    const [gemini, ...rest] = roundTrip(fromNpmSnapshot(NPM_FILES));
    expect(rest).toEqual([]);
    expect(gemini).toMatchObject({
      provider: 'gemini',
      id: 'gemini-x-pro',
      family: 'gemini-x-pro',
      price: { input: 2, output: 12, cacheRead: 0.2 },
      longContext: { above: 200_000, price: { input: 4, output: 18, cacheRead: 0.4 } },
    });
    expect(gemini?.price?.cacheWrite).toBeUndefined();
  });

  it('names families without versions and dates', () => {
    expect(familyOf('claude-sonnet-4-5-20250929')).toBe('claude-sonnet');
    expect(familyOf('gpt-5.4-mini')).toBe('gpt-mini');
    expect(familyOf('o4-mini')).toBe('o-mini');
    expect(familyOf('gemini-2.5-flash-lite')).toBe('gemini-flash-lite');
  });

  it('never forgets a model: what the new data lacks is kept from the previous catalogue', () => {
    const previousText = catalogueModule(
      [
        record('anthropic', 'claude-sonnet-4-5', 3),
        record('anthropic', 'claude-old-9', 7),
        record('gemini', 'gemini-1.0-pro', 0.5),
      ],
      { updated: '2026-01-01', source: 'test' },
    );
    const previous = parseCatalogueLines(previousText);
    const fresh = [record('anthropic', 'claude-sonnet-4-5', 2), record('openai', 'gpt-9', 1)];
    const { records, kept } = withRetained(fresh, previous, []);
    // The new data wins where it lists a model; the rest of the old catalogue survives.
    expect(records.find((r: { id: string }) => r.id === 'claude-sonnet-4-5').price.input).toBe(2);
    expect(kept).toEqual(['claude-old-9', 'gemini-1.0-pro']);
    expect(records.find((r: { id: string }) => r.id === 'claude-old-9').price).toEqual({
      input: 7,
      output: 14,
      cacheRead: 0.7,
    });
    // A line written from a kept record reads back the same.
    const again = parseCatalogueLines(catalogueModule(records, { updated: '2026-01-02', source: 't' }));
    expect(again).toEqual(
      expect.arrayContaining(previous.filter((r: { id: string }) => r.id !== 'claude-sonnet-4-5')),
    );
  });

  it('keeps pricing the models people still run that the source dropped (claude-sonnet-4, gemini-2.0-flash)', () => {
    for (const retired of RETIRED as { id: string }[]) {
      expect(modelInfo(retired.id)?.price, retired.id).toBeDefined();
    }
    expect(modelInfo('claude-sonnet-4-20250514')?.id).toBe('claude-sonnet-4');
    expect(modelInfo('claude-opus-4-1-20250805')?.id).toBe('claude-opus-4-1');
    expect(costOf('claude-sonnet-4-20250514', { prompt: 1_000_000 })).toBeCloseTo(3);
  });
});

function record(provider: string, id: string, input: number) {
  return {
    provider,
    id,
    family: id,
    contextWindow: 200_000,
    maxOutputTokens: 8_192,
    reasoning: false,
    images: true,
    tools: true,
    responsesApi: false,
    price: { input, output: input * 2, cacheRead: input / 10 },
  };
}
