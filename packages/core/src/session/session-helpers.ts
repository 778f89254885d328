import type { AgentEvent } from '../agent/events';
import type { ContentGenerator } from '../llm/content-generator';
import { contextWindowOf } from '../llm/models';
import type { ToolModelClient } from '../tools/tool';
import type { BudgetExceeded } from './budgets';

/** Model round-trips allowed for one prompt unless configured. */
export const DEFAULT_MAX_TURNS_PER_PROMPT = 100;

/** Context window of a model; unknown models get Gemini's 1M (the most common case for kodo). */
export function windowOf(model: string): number {
  return contextWindowOf(model) ?? 1_048_576;
}

export function budgetEvent(exceeded: BudgetExceeded): AgentEvent {
  return {
    type: 'budget_exceeded',
    budget: exceeded.budget,
    limit: exceeded.limit,
    used: exceeded.used,
    message: exceeded.message,
  };
}

/** One-shot model calls for tools, always on the session's current model. */
export function toolModelClient(generator: ContentGenerator, currentModel: () => string): ToolModelClient {
  return {
    provider: generator.provider,
    get model() {
      return currentModel();
    },
    generateContent: (request, signal) =>
      generator.generateContent({ ...request, model: currentModel() }, signal),
  };
}
