/**
 * What kodo knows about models it did not train: context windows, output limits and list prices,
 * so stats can show cost per model and budgets can stop a run before it gets expensive.
 *
 * Prices are US dollars per million tokens as the vendors list them for their public APIs
 * (standard tier, no batch discount). They change; an unknown or renamed model simply has no
 * entry, and `costOf` then says "unknown" (undefined) rather than guessing.
 */

/** Dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Prompt tokens served from the provider's cache. Default: `input`. */
  cachedInput?: number;
  /** Prompt tokens written to the cache (Anthropic bills these above `input`). Default: `input`. */
  cacheWrite?: number;
}

export interface ModelInfo {
  /** Canonical id, e.g. `gpt-5`, `claude-sonnet-4-5`, `gemini-2.5-pro`. */
  id: string;
  provider: 'gemini' | 'openai' | 'anthropic';
  /** Tokens of prompt plus output the model accepts in one request. */
  contextWindow: number;
  /** Largest `max_tokens` the API accepts (Anthropic needs one on every request). */
  maxOutputTokens: number;
  /** Whether the model can think (thinking blocks, reasoning tokens). */
  reasoning: boolean;
  /** Whether the model reads images in the prompt (inline image parts). */
  images: boolean;
  price: ModelPrice;
  /** Long prompts cost more on some models: this price applies when the prompt exceeds `above`. */
  longContext?: { above: number; price: ModelPrice };
}

const M = 1_000_000;

export const MODEL_TABLE: readonly ModelInfo[] = [
  // Gemini (ai.google.dev pricing, paid tier)
  {
    id: 'gemini-3-pro-preview',
    provider: 'gemini',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    reasoning: true,
    images: true,
    price: { input: 2, output: 12, cachedInput: 0.2 },
    longContext: { above: 200_000, price: { input: 4, output: 18, cachedInput: 0.4 } },
  },
  {
    id: 'gemini-2.5-pro',
    provider: 'gemini',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    reasoning: true,
    images: true,
    price: { input: 1.25, output: 10, cachedInput: 0.125 },
    longContext: { above: 200_000, price: { input: 2.5, output: 15, cachedInput: 0.25 } },
  },
  {
    id: 'gemini-2.5-flash',
    provider: 'gemini',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    reasoning: true,
    images: true,
    price: { input: 0.3, output: 2.5, cachedInput: 0.03 },
  },
  {
    id: 'gemini-2.5-flash-lite',
    provider: 'gemini',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    reasoning: true,
    images: true,
    price: { input: 0.1, output: 0.4, cachedInput: 0.01 },
  },
  {
    id: 'gemini-2.0-flash',
    provider: 'gemini',
    contextWindow: 1_048_576,
    maxOutputTokens: 8_192,
    reasoning: false,
    images: true,
    price: { input: 0.1, output: 0.4, cachedInput: 0.025 },
  },
  // OpenAI (platform.openai.com pricing, standard tier)
  {
    id: 'gpt-5',
    provider: 'openai',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    images: true,
    price: { input: 1.25, output: 10, cachedInput: 0.125 },
  },
  {
    id: 'gpt-5-mini',
    provider: 'openai',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    images: true,
    price: { input: 0.25, output: 2, cachedInput: 0.025 },
  },
  {
    id: 'gpt-5-nano',
    provider: 'openai',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    images: true,
    price: { input: 0.05, output: 0.4, cachedInput: 0.005 },
  },
  {
    id: 'gpt-4.1',
    provider: 'openai',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    reasoning: false,
    images: true,
    price: { input: 2, output: 8, cachedInput: 0.5 },
  },
  {
    id: 'gpt-4.1-mini',
    provider: 'openai',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    reasoning: false,
    images: true,
    price: { input: 0.4, output: 1.6, cachedInput: 0.1 },
  },
  {
    id: 'gpt-4o',
    provider: 'openai',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    reasoning: false,
    images: true,
    price: { input: 2.5, output: 10, cachedInput: 1.25 },
  },
  {
    id: 'gpt-4o-mini',
    provider: 'openai',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    reasoning: false,
    images: true,
    price: { input: 0.15, output: 0.6, cachedInput: 0.075 },
  },
  {
    id: 'o3',
    provider: 'openai',
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    reasoning: true,
    images: true,
    price: { input: 2, output: 8, cachedInput: 0.5 },
  },
  {
    id: 'o4-mini',
    provider: 'openai',
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    reasoning: true,
    images: true,
    price: { input: 1.1, output: 4.4, cachedInput: 0.275 },
  },
  // Anthropic (claude.com pricing; cache writes are the 5-minute ones)
  {
    id: 'claude-opus-4-5',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    reasoning: true,
    images: true,
    price: { input: 5, output: 25, cachedInput: 0.5, cacheWrite: 6.25 },
  },
  {
    id: 'claude-opus-4-1',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    reasoning: true,
    images: true,
    price: { input: 15, output: 75, cachedInput: 1.5, cacheWrite: 18.75 },
  },
  {
    id: 'claude-sonnet-4-5',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    reasoning: true,
    images: true,
    price: { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
    longContext: { above: 200_000, price: { input: 6, output: 22.5, cachedInput: 0.6, cacheWrite: 7.5 } },
  },
  {
    id: 'claude-sonnet-4',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    reasoning: true,
    images: true,
    price: { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
  },
  {
    id: 'claude-haiku-4-5',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    reasoning: true,
    images: true,
    price: { input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25 },
  },
  {
    id: 'claude-3-5-haiku',
    provider: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 8_192,
    reasoning: false,
    images: true,
    price: { input: 0.8, output: 4, cachedInput: 0.08, cacheWrite: 1 },
  },
];

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
 * The table entry for a model id, matching dated snapshots too (`claude-sonnet-4-5-20250929`,
 * `gpt-5-2025-08-07`): the longest table id that equals the id or is followed by `-`. So
 * `gpt-5-mini` never matches `gpt-5`.
 */
export function modelInfo(model: string): ModelInfo | undefined {
  const id = bareModelId(model);
  let best: ModelInfo | undefined;
  for (const entry of MODEL_TABLE) {
    if (id !== entry.id && !id.startsWith(`${entry.id}-`)) continue;
    // A longer table id that also matches is the more specific model (gpt-5-mini vs gpt-5).
    if (!best || entry.id.length > best.id.length) best = entry;
  }
  if (best && id !== best.id && isVariantSuffix(id.slice(best.id.length + 1))) return undefined;
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

/**
 * The cost in US dollars of `tokens` on `model`, or undefined when the model's price is not
 * known. Local servers (`ollama:…`) cost nothing. For one request the long-context price applies
 * when its prompt exceeds the threshold; price each request separately to get that right for
 * sums (a total over many requests uses the base price).
 */
export function costOf(model: string, tokens: TokenCounts): number | undefined {
  if (LOCAL_PREFIX.test(model.trim())) return 0;
  const info = modelInfo(model);
  if (!info) return undefined;
  const prompt = tokens.prompt ?? 0;
  const price = info.longContext && prompt > info.longContext.above ? info.longContext.price : info.price;
  const cached = Math.min(tokens.cached ?? 0, prompt);
  const written = Math.min(tokens.cacheWrite ?? 0, prompt - cached);
  const fresh = prompt - cached - written;
  const output = (tokens.candidates ?? 0) + (tokens.thoughts ?? 0);
  const dollars =
    fresh * price.input +
    cached * (price.cachedInput ?? price.input) +
    written * (price.cacheWrite ?? price.input) +
    output * price.output;
  return dollars / M;
}

/** Whether the model reads images: from the model table; undefined for a model it does not list. */
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
