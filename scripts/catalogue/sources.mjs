// Where the model catalogue comes from, turned into one record shape (see refresh.mjs).
//
// - models.dev (https://models.dev/api.json, MIT): the maintained, community-kept catalogue of
//   models, windows, output limits, prices and capabilities; updated many times a week. Release
//   CI reads it.
// - npm: `@earendil-works/pi-ai` (MIT) ships a snapshot generated from models.dev (plus its
//   maintainers' corrections) in `dist/providers/data/<provider>.json`. It is the fallback for a
//   machine that reaches the npm registry but not models.dev.
//
// A record: { provider, id, family, contextWindow, maxOutputTokens, reasoning, images, tools,
// responsesApi, price?: {input, output, cacheRead?, cacheWrite?}, longContext?: {above, price} }.
// Prices are US dollars per million tokens.

/** kodo's provider names for the catalogue's ones; other providers are left out. */
export const PROVIDERS = { google: 'gemini', openai: 'openai', anthropic: 'anthropic' };

export const MODELS_DEV_URL = 'https://models.dev/api.json';
export const NPM_PACKAGE = '@earendil-works/pi-ai';

/** models.dev's api.json → records. */
export function fromModelsDev(api) {
  const records = [];
  for (const [source, provider] of Object.entries(PROVIDERS)) {
    for (const model of Object.values(api[source]?.models ?? {})) {
      if ((model.type ?? 'chat') !== 'chat') continue;
      if (!model.modalities?.output?.includes('text')) continue;
      const above = model.cost?.context_over_200k ? 200_000 : undefined;
      records.push({
        provider,
        id: model.id,
        family: model.family ?? familyOf(model.id),
        contextWindow: model.limit?.context ?? 0,
        maxOutputTokens: model.limit?.output ?? 0,
        reasoning: model.reasoning === true,
        images: model.modalities.input?.includes('image') === true,
        tools: model.tool_call === true,
        responsesApi: provider === 'openai' && model.provider?.shape !== 'completions',
        price: priceOf(
          model.cost?.input,
          model.cost?.output,
          model.cost?.cache_read,
          model.cost?.cache_write,
        ),
        ...(above ? { longContext: longContextOf(above, model.cost.context_over_200k, modelsDevCost) } : {}),
      });
    }
  }
  return records;
}

const modelsDevCost = (cost) => priceOf(cost.input, cost.output, cost.cache_read, cost.cache_write);

/** The npm snapshot's `<provider>.json` files (by models.dev provider name) → records. */
export function fromNpmSnapshot(files) {
  const records = [];
  for (const [source, provider] of Object.entries(PROVIDERS)) {
    for (const [api, models] of Object.entries(files[source] ?? {})) {
      for (const [key, model] of Object.entries(models)) {
        // Keys are `<kind>:<id>`; only chat models answer kodo's requests.
        if (!key.startsWith('chat:')) continue;
        const tier = model.cost?.tiers?.[0];
        records.push({
          provider,
          id: model.id,
          family: familyOf(model.id),
          contextWindow: model.contextWindow ?? 0,
          maxOutputTokens: model.maxTokens ?? 0,
          reasoning: model.reasoning === true,
          images: model.input?.includes('image') === true,
          // The snapshot lists only models that can call tools.
          tools: true,
          responsesApi: provider === 'openai' && api === 'openai-responses',
          price: npmCost(model.cost),
          ...(tier ? { longContext: longContextOf(tier.inputTokensAbove, tier, npmCost) } : {}),
        });
      }
    }
  }
  return records;
}

const npmCost = (cost) =>
  cost ? priceOf(cost.input, cost.output, cost.cacheRead, cost.cacheWrite) : undefined;

function longContextOf(above, cost, convert) {
  const price = convert(cost);
  return price ? { above, price } : undefined;
}

/**
 * A price, or undefined without input and output prices. A cache price of 0 next to a non-zero
 * input price means "no separate price" in both sources (OpenAI and Gemini bill no cache writes):
 * it is left out, so kodo charges the input price, never nothing.
 */
function priceOf(input, output, cacheRead, cacheWrite) {
  if (typeof input !== 'number' || typeof output !== 'number') return undefined;
  const price = { input, output };
  if (typeof cacheRead === 'number' && (cacheRead > 0 || input === 0)) price.cacheRead = cacheRead;
  if (typeof cacheWrite === 'number' && (cacheWrite > 0 || input === 0)) price.cacheWrite = cacheWrite;
  return price;
}

/**
 * A family name when the source gives none: the id without versions, dates and snapshot tags
 * (`claude-sonnet-4-5-20250929` → `claude-sonnet`, `gpt-5.4-mini` → `gpt-mini`, `o4-mini` →
 * `o-mini`, `gemini-2.5-flash-lite` → `gemini-flash-lite`).
 */
export function familyOf(id) {
  const words = id
    .toLowerCase()
    .split('-')
    .filter((word) => !/^[\d.]+$/.test(word) && !/^(latest|preview|exp)$/.test(word));
  const stem = words.map((word) => word.replace(/^([a-z])\d[\d.]*$/, '$1')).join('-');
  return stem || id;
}
