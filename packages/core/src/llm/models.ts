/**
 * Looking models up in the catalogue (catalogue.ts: context windows, output limits, list prices,
 * capabilities, generated from models.dev) and pricing what a session used, so stats can show
 * cost per model and budgets can stop a run before it gets expensive.
 *
 * Prices are US dollars per million tokens as the catalogue lists them (standard tier, no batch
 * discount). An unknown or renamed model simply has no entry, and `costOf` then says "unknown"
 * (undefined) rather than guessing. Overrides from settings apply through a `ModelCatalogue`
 * (model-overrides.ts); the functions here take one, and default to the built-in catalogue.
 */
import { catalogueEntry, catalogueIds } from './catalogue';
import type { ModelCatalogue, ModelInfo, ModelPrice } from './model-info';

export type { CatalogueProvider, ModelCatalogue, ModelInfo, ModelPrice } from './model-info';

const M = 1_000_000;

/** Built-in provider names that may lead a model spec (`openai:gpt-5`); see providers/registry.ts. */
const KNOWN_PREFIXES = new Set(['gemini', 'openai', 'anthropic', 'ollama', 'openrouter']);
/** Servers on the user's own machine: their tokens cost nothing. */
const LOCAL_PREFIX = /^ollama:/i;

/**
 * The bare model id of a spec: `openai:gpt-5` → `gpt-5`, `models/gemini-2.5-pro` →
 * `gemini-2.5-pro`, `anthropic/claude-sonnet-4.5` (OpenRouter) → `claude-sonnet-4-5`.
 */
export function bareModelId(model: string): string {
  let id = model.trim().toLowerCase();
  const colon = id.indexOf(':');
  // Only a provider name is stripped; an Ollama tag (`qwen3:8b`) is part of the model id.
  if (colon > 0 && KNOWN_PREFIXES.has(id.slice(0, colon))) id = id.slice(colon + 1);
  const slash = id.lastIndexOf('/');
  if (slash >= 0) id = id.slice(slash + 1);
  // OpenRouter and some gateways spell versions with dots (`claude-sonnet-4.5`).
  return id.startsWith('claude-') ? id.replace(/(\d)\.(\d)/g, '$1-$2') : id;
}

/**
 * The built-in catalogue's entry for a model spec or id, matching dated snapshots too
 * (`claude-sonnet-4-5-20250929`, `gpt-5-2025-08-07`): the longest catalogue id that equals the
 * id or is followed by `-`. So `gpt-5-mini` never matches `gpt-5`. Settings' overrides are not
 * applied here: ask a `ModelCatalogue` (the router's) for those.
 */
export function modelInfo(model: string): ModelInfo | undefined {
  // An exact id is the best match there can be, and needs no index of the others.
  const exact = catalogueEntry(bareModelId(model));
  if (exact) return exact;
  const id = matchModelId(catalogueIds(), model);
  return id === undefined ? undefined : catalogueEntry(id);
}

/** `modelInfo` over any list of entries (a test's own, say). */
export function findModel(entries: readonly ModelInfo[], model: string): ModelInfo | undefined {
  const id = matchModelId(
    entries.map((entry) => entry.id),
    model,
  );
  return entries.find((entry) => entry.id === id);
}

function matchModelId(ids: Iterable<string>, model: string): string | undefined {
  const id = bareModelId(model);
  let best: string | undefined;
  for (const known of ids) {
    if (id !== known && !id.startsWith(`${known}-`)) continue;
    // A longer id that also matches is the more specific model (gpt-5-mini vs gpt-5).
    if (!best || known.length > best.length) best = known;
  }
  if (best && id !== best && isVariantSuffix(id.slice(best.length + 1))) return undefined;
  return best;
}

/** `gpt-5-codex` is another model than `gpt-5`; `gpt-5-2025-08-07` or `-latest` is the same one. */
function isVariantSuffix(suffix: string): boolean {
  return !/^(\d{4}-?\d{2}-?\d{2}|\d{8}|latest|preview|exp|\d{3})(-.*)?$/.test(suffix);
}

/** Token counts as session stats keep them (`prompt` includes `cached`). */
export interface TokenCounts {
  /** Prompt tokens, cached ones included. */
  prompt?: number;
  /** Prompt tokens read from the cache. */
  cached?: number;
  /** Prompt tokens written to the cache. */
  cacheWrite?: number;
  /** Answer tokens. */
  candidates?: number;
  /** Reasoning tokens (billed as output). */
  thoughts?: number;
}

/** The catalogue without the settings' overrides. */
export const BUILTIN_CATALOGUE: ModelCatalogue = { info: modelInfo };

const FREE: ModelPrice = { input: 0, output: 0 };

/**
 * The list price of a model spec, or undefined when it is not known: the one place that says
 * whether kodo can price a model (budgets in dollars need it). Overrides come with the
 * `catalogue` (default: the built-in one); local servers (`ollama:…`) are free unless one says
 * otherwise.
 */
export function priceOf(
  model: string,
  catalogue: ModelCatalogue = BUILTIN_CATALOGUE,
): ModelPrice | undefined {
  return pricing(model, catalogue)?.price;
}

function pricing(
  model: string,
  catalogue: ModelCatalogue,
): Pick<ModelInfo, 'price' | 'longContext'> | undefined {
  const info = catalogue.info(model);
  if (LOCAL_PREFIX.test(model.trim()) && !info?.overridden?.includes('price')) return { price: FREE };
  return info?.price ? info : undefined;
}

/**
 * The cost in US dollars of `tokens` on `model`, or undefined when the model's price is not
 * known (`priceOf`). For one request the long-context price applies when its prompt exceeds the
 * threshold; price each request separately to get that right for sums (a total over many
 * requests uses the base price).
 */
export function costOf(
  model: string,
  tokens: TokenCounts,
  catalogue: ModelCatalogue = BUILTIN_CATALOGUE,
): number | undefined {
  const known = pricing(model, catalogue);
  if (!known?.price) return undefined;
  const prompt = tokens.prompt ?? 0;
  const long = known.longContext;
  const price = long && prompt > long.above ? long.price : known.price;
  const cached = Math.min(tokens.cached ?? 0, prompt);
  const written = Math.min(tokens.cacheWrite ?? 0, prompt - cached);
  const fresh = prompt - cached - written;
  const output = (tokens.candidates ?? 0) + (tokens.thoughts ?? 0);
  const dollars =
    fresh * price.input +
    cached * (price.cacheRead ?? price.input) +
    written * (price.cacheWrite ?? price.input) +
    output * price.output;
  return dollars / M;
}

/** Whether the model reads images: from the catalogue; undefined for a model it does not list. */
export function acceptsImages(model: string): boolean | undefined {
  return modelInfo(model)?.images;
}

/** The context window of a model, or undefined when unknown. */
export function contextWindowOf(model: string): number | undefined {
  return modelInfo(model)?.contextWindow;
}

/** The window to plan with: unknown models get Gemini's 1M (the most common case for kodo). */
export function contextWindowOrDefault(model: string): number {
  return contextWindowOf(model) ?? 1_048_576;
}
