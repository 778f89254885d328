import type { SessionStatsSnapshot } from '@kodo/core/engine';

interface ModelFacts {
  contextWindow: number;
  /** USD per million tokens (list prices for prompts up to 200k tokens). */
  inputPerMillion: number;
  outputPerMillion: number;
  cachedPerMillion: number;
}

/** Published context windows and list prices of the Gemini models kodo knows. */
const MODELS: Record<string, ModelFacts> = {
  'gemini-2.5-pro': {
    contextWindow: 1_048_576,
    inputPerMillion: 1.25,
    outputPerMillion: 10,
    cachedPerMillion: 0.31,
  },
  'gemini-2.5-flash': {
    contextWindow: 1_048_576,
    inputPerMillion: 0.3,
    outputPerMillion: 2.5,
    cachedPerMillion: 0.075,
  },
  'gemini-2.5-flash-lite': {
    contextWindow: 1_048_576,
    inputPerMillion: 0.1,
    outputPerMillion: 0.4,
    cachedPerMillion: 0.025,
  },
  'gemini-2.0-flash': {
    contextWindow: 1_048_576,
    inputPerMillion: 0.1,
    outputPerMillion: 0.4,
    cachedPerMillion: 0.025,
  },
  'gemini-2.0-flash-lite': {
    contextWindow: 1_048_576,
    inputPerMillion: 0.075,
    outputPerMillion: 0.3,
    cachedPerMillion: 0.02,
  },
};

const DEFAULT_CONTEXT_WINDOW = 1_048_576;

function factsFor(model: string): ModelFacts | undefined {
  const name = model.replace(/^models\//, '');
  if (MODELS[name]) return MODELS[name];
  // Dated and preview variants (`gemini-2.5-flash-preview-05-20`) price like their family.
  const family = Object.keys(MODELS)
    .filter((known) => name.startsWith(`${known}-`))
    .sort((a, b) => b.length - a.length)[0];
  return family ? MODELS[family] : undefined;
}

export function contextWindow(model: string): number {
  return factsFor(model)?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
}

/** Approximate cost in USD of what the session used, or undefined when a model's price is unknown. */
export function sessionCost(snapshot: SessionStatsSnapshot): number | undefined {
  let total = 0;
  for (const [model, stats] of Object.entries(snapshot.models)) {
    const facts = factsFor(model);
    if (!facts) {
      if (stats.tokens.total > 0) return undefined;
      continue;
    }
    const { input, cached, candidates, thoughts } = stats.tokens;
    total +=
      (input * facts.inputPerMillion +
        cached * facts.cachedPerMillion +
        (candidates + thoughts) * facts.outputPerMillion) /
      1_000_000;
  }
  return total;
}
