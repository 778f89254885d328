/**
 * Hard budgets for a session: dollars, tokens, tool calls and wall time. The session checks them
 * between steps (before each model request and before each batch of tool calls), so a run stops
 * cleanly, with a valid history, rather than in the middle of a stream or a command.
 *
 * Cost is priced per response with the model catalogue (`costOf`, the settings' overrides
 * included when a catalogue is passed), so the long-context price applies to the requests that pay it. Tokens are what the provider reports (`totalTokenCount`).
 */

import type { UsageMetadata } from '../contracts/messages';
import type { ApiCallObserver } from '../contracts/observers';
import { BUILTIN_CATALOGUE, costOf, type ModelCatalogue, priceOf } from '../llm/models';
import { monotonicMs } from '../utils/clock';

export interface BudgetLimits {
  /** US dollars, priced with the model catalogue. */
  maxCostUsd?: number;
  /** Tokens the provider counted (prompt, answer and thinking), summed over requests. */
  maxTokens?: number;
  /** Tool calls the model asks for; a batch that would pass the limit is not run. */
  maxToolCalls?: number;
  /** Wall time from the first prompt, in milliseconds. */
  maxTimeMs?: number;
}

export type BudgetKind = 'cost' | 'tokens' | 'tool_calls' | 'time';

export interface BudgetExceeded {
  budget: BudgetKind;
  limit: number;
  used: number;
  /** For the person: what ran out, and by how much. */
  message: string;
}

export interface BudgetUsage {
  costUsd: number;
  /** Cost per model (only models with a known price). */
  costByModel: Record<string, number>;
  tokens: number;
  toolCalls: number;
  elapsedMs: number;
  /** Models used without a known price: their cost counts as 0. */
  unpricedModels: string[];
}

/** Tracks what a session spent, and says when a budget is used up. */
export class BudgetTracker implements ApiCallObserver {
  private costUsd = 0;
  private readonly costByModel = new Map<string, number>();
  private readonly unpriced = new Set<string>();
  private tokens = 0;
  private toolCalls = 0;
  private startedAt: number | undefined;
  private readonly now: () => number;
  private readonly models: ModelCatalogue;

  constructor(
    readonly limits: BudgetLimits = {},
    options: { now?: () => number; models?: ModelCatalogue } = {},
  ) {
    this.now = options.now ?? monotonicMs;
    this.models = options.models ?? BUILTIN_CATALOGUE;
  }

  /** Whether any limit is set. */
  get active(): boolean {
    const { maxCostUsd, maxTokens, maxToolCalls, maxTimeMs } = this.limits;
    return [maxCostUsd, maxTokens, maxToolCalls, maxTimeMs].some((limit) => limit !== undefined);
  }

  /** The clock starts with the first prompt (later calls change nothing). */
  start(): void {
    this.startedAt ??= this.now();
  }

  onApiResponse(info: { model: string; durationMs: number; usage: UsageMetadata | undefined }): void {
    const usage = info.usage;
    if (!usage) return;
    this.tokens += usage.totalTokenCount ?? 0;
    const cost = costOf(
      info.model,
      {
        prompt: usage.promptTokenCount ?? 0,
        cached: usage.cachedContentTokenCount ?? 0,
        candidates: usage.candidatesTokenCount ?? 0,
        thoughts: usage.thoughtsTokenCount ?? 0,
      },
      this.models,
    );
    if (cost === undefined) {
      this.unpriced.add(info.model);
      return;
    }
    this.costUsd += cost;
    this.costByModel.set(info.model, (this.costByModel.get(info.model) ?? 0) + cost);
  }

  onApiError(): void {}

  recordToolCalls(count: number): void {
    this.toolCalls += count;
  }

  usage(): BudgetUsage {
    return {
      costUsd: this.costUsd,
      costByModel: Object.fromEntries(this.costByModel),
      tokens: this.tokens,
      toolCalls: this.toolCalls,
      elapsedMs: this.startedAt === undefined ? 0 : this.now() - this.startedAt,
      unpricedModels: [...this.unpriced],
    };
  }

  /**
   * Before a request to `model`: money, tokens or time used up? A dollar budget also refuses a
   * model whose price is not known: its cost would count as nothing and the budget never trip.
   */
  beforeRequest(model?: string): BudgetExceeded | undefined {
    const limit = this.limits.maxCostUsd;
    if (limit !== undefined && model !== undefined) {
      const refusal = unpricedModelRefusal(model, this.models);
      if (refusal) return { budget: 'cost', limit, used: this.costUsd, message: refusal };
    }
    return this.spent() ?? this.timeUp();
  }

  /** Before running `count` tool calls: would they pass the tool-call limit, or is anything else used up? */
  beforeTools(count: number): BudgetExceeded | undefined {
    const limit = this.limits.maxToolCalls;
    if (limit !== undefined && this.toolCalls + count > limit) {
      return {
        budget: 'tool_calls',
        limit,
        used: this.toolCalls,
        message: `Tool call budget reached: ${this.toolCalls} of ${limit} tool calls made, and the model asked for ${count} more.`,
      };
    }
    return this.spent() ?? this.timeUp();
  }

  private spent(): BudgetExceeded | undefined {
    const { maxCostUsd, maxTokens } = this.limits;
    if (maxCostUsd !== undefined && this.costUsd >= maxCostUsd) {
      return {
        budget: 'cost',
        limit: maxCostUsd,
        used: this.costUsd,
        message: `Cost budget reached: $${dollars(this.costUsd)} spent of $${dollars(maxCostUsd)} allowed.`,
      };
    }
    if (maxTokens !== undefined && this.tokens >= maxTokens) {
      return {
        budget: 'tokens',
        limit: maxTokens,
        used: this.tokens,
        message: `Token budget reached: ${group(this.tokens)} tokens used of ${group(maxTokens)} allowed.`,
      };
    }
    return undefined;
  }

  private timeUp(): BudgetExceeded | undefined {
    const limit = this.limits.maxTimeMs;
    if (limit === undefined || this.startedAt === undefined) return undefined;
    const elapsed = this.now() - this.startedAt;
    if (elapsed < limit) return undefined;
    return {
      budget: 'time',
      limit,
      used: elapsed,
      message: `Time budget reached: ${seconds(elapsed)} elapsed of ${seconds(limit)} allowed.`,
    };
  }
}

/**
 * Why a dollar budget cannot run `model` (its price is not known), in one line naming the model
 * and the setting that gives it a price; undefined when the catalogue (overrides included) prices it.
 */
export function unpricedModelRefusal(
  model: string,
  catalogue: ModelCatalogue = BUILTIN_CATALOGUE,
): string | undefined {
  if (priceOf(model, catalogue) !== undefined) return undefined;
  const where = catalogue.where?.(model) ?? guessWhere(model);
  const key = `providers.${where.provider}.modelOverrides.${where.id}.price`;
  return (
    `The price of ${model} is not known, so a dollar budget (--max-budget-usd, budgets.maxBudgetUsd) cannot ` +
    `limit its cost and nothing was sent: give it a price in settings (${key}: {"input": …, "output": …}, ` +
    'US$ per million tokens), or run without a dollar budget.'
  );
}

/** `provider:model` as written; a bare id names no profile. */
function guessWhere(model: string): { provider: string; id: string } {
  const colon = model.indexOf(':');
  return colon > 0
    ? { provider: model.slice(0, colon), id: model.slice(colon + 1) }
    : { provider: '<provider>', id: model };
}

/**
 * `--max-time` values: seconds (`90`), or a number with a unit (`500ms`, `90s`, `15m`, `2h`).
 * Returns milliseconds, or undefined for anything else (zero and negative included).
 */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  const ms = value * ({ ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const)[unit as 'ms' | 's' | 'm' | 'h'];
  return ms > 0 ? ms : undefined;
}

/** Cents for amounts of a dollar or more, four decimals below (a cheap run costs fractions of a cent). */
function dollars(value: number): string {
  return value >= 1 ? value.toFixed(2) : value.toFixed(4);
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

function group(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
