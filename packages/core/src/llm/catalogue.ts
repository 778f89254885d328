/**
 * The built-in model catalogue: `catalogue.generated.ts` (from models.dev, refreshed by
 * scripts/catalogue/refresh.mjs) read into entries the first time a model is looked up. The
 * generated module is one string, so start-up pays for a string constant, not for a table of
 * objects; parsing it takes well under a millisecond, once per process.
 */
import { CATALOGUE_LINES } from './catalogue.generated';
import type { ModelInfo, ModelPrice } from './model-info';

// A memo of constant data, filled on the first lookup: every caller gets the same answer.
let entries: readonly ModelInfo[] | undefined;

/** Every model of the catalogue, sorted by provider and id. */
export function catalogueEntries(): readonly ModelInfo[] {
  entries ??= parseCatalogue(CATALOGUE_LINES);
  return entries;
}

/** Lines as scripts/catalogue/format.mjs writes them; a malformed line is skipped. */
export function parseCatalogue(text: string): ModelInfo[] {
  const parsed: ModelInfo[] = [];
  for (const line of text.split('\n')) {
    const entry = parseLine(line);
    if (entry) parsed.push(entry);
  }
  return parsed;
}

function parseLine(line: string): ModelInfo | undefined {
  const [provider, id, family, context, maxOutput, flags = '', ...prices] = line.split('|');
  if (provider !== 'gemini' && provider !== 'openai' && provider !== 'anthropic') return undefined;
  if (!id) return undefined;
  const price = priceOf(prices.slice(0, 4));
  const above = Number(prices[4]);
  const longPrice = priceOf(prices.slice(5, 9));
  return {
    id,
    provider,
    ...(family ? { family } : {}),
    ...(Number(context) > 0 ? { contextWindow: Number(context) } : {}),
    ...(Number(maxOutput) > 0 ? { maxOutputTokens: Number(maxOutput) } : {}),
    reasoning: flags.includes('r'),
    images: flags.includes('i'),
    tools: flags.includes('t'),
    responsesApi: flags.includes('R'),
    ...(price ? { price } : {}),
    ...(above > 0 && longPrice ? { longContext: { above, price: longPrice } } : {}),
  };
}

function priceOf([input, output, cacheRead, cacheWrite]: (string | undefined)[]): ModelPrice | undefined {
  if (!input || !output) return undefined;
  return {
    input: Number(input),
    output: Number(output),
    ...(cacheRead ? { cacheRead: Number(cacheRead) } : {}),
    ...(cacheWrite ? { cacheWrite: Number(cacheWrite) } : {}),
  };
}
