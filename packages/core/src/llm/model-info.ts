/**
 * What kodo knows about a model: the shapes of the catalogue (catalogue.ts, from models.dev)
 * and of the settings' overrides applied over it (model-overrides.ts).
 */

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Prompt tokens served from the provider's cache. Default: `input`. */
  cacheRead?: number;
  /** Prompt tokens written to the cache (Anthropic bills these above `input`). Default: `input`. */
  cacheWrite?: number;
}

/** The catalogue's vendors; a profile's own models (local servers) name their profile instead. */
export type CatalogueProvider = 'gemini' | 'openai' | 'anthropic';

export interface ModelInfo {
  /** Canonical id, e.g. `gpt-5`, `claude-sonnet-4-5`, `gemini-2.5-pro`. */
  id: string;
  /** The vendor (`gemini`, `openai`, `anthropic`), or the profile whose overrides describe it. */
  provider: string;
  /** The model line without versions (`claude-sonnet`, `gpt-mini`, `gemini-flash`), when known. */
  family?: string;
  /** Tokens of prompt plus output the model accepts in one request (catalogue models: always). */
  contextWindow?: number;
  /** Largest `max_tokens` the API accepts (Anthropic needs one on every request). */
  maxOutputTokens?: number;
  /** Whether the model can think (thinking blocks, reasoning tokens). */
  reasoning: boolean;
  /** Whether the model reads images in the prompt (inline image parts). */
  images: boolean;
  /** Whether the model can call tools. */
  tools: boolean;
  /** One of OpenAI's own models that speaks its Responses API. */
  responsesApi: boolean;
  /** List prices; undefined when not known (a budget in dollars cannot limit such a model). */
  price?: ModelPrice;
  /** Long prompts cost more on some models: this price applies when the prompt exceeds `above`. */
  longContext?: { above: number; price: ModelPrice };
  /** The fields the settings' `providers.<name>.modelOverrides` set (absent: none). */
  overridden?: readonly string[];
}

/** What kodo knows about models, with the settings' overrides applied (the router's is one). */
export interface ModelCatalogue {
  /** The model a spec names (`openai:gpt-5`, `local:qwen3-coder`, `gemini-2.5-pro`), if known. */
  info(spec: string): ModelInfo | undefined;
  /**
   * The provider profile and model id whose `providers.<provider>.modelOverrides.<id>` describe
   * the spec (to tell a person where to set what the catalogue does not know).
   */
  where?(spec: string): { provider: string; id: string } | undefined;
}
