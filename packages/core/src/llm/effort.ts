/**
 * One effort setting (`--effort`, `/effort`, `model.effort`, a profile's or an agent's `effort`)
 * and what it becomes on each family's wire. Unset, each family gets what its vendor's own agent
 * sends (docs/providers.md, "What kodo sends"): Gemini CLI's thinking config and sampling, Claude
 * Code's thinking budget, Codex's reasoning effort. Utility calls (compression, a tool's one-shot
 * call) think as little as the model allows, as Gemini CLI's utility models do.
 */
import type { GenerationConfig } from '../contracts/messages';

export const EFFORTS = ['off', 'low', 'medium', 'high', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];

export function isEffort(value: unknown): value is Effort {
  return typeof value === 'string' && (EFFORTS as readonly string[]).includes(value);
}

/** The wire family a request goes to: which knob the effort turns. */
export type ThinkingFamily = 'gemini' | 'anthropic' | 'openai-responses' | 'openai-chat';

export interface ThinkingTarget {
  family: ThinkingFamily;
  /** The model id the API expects. */
  model: string;
  /** The catalogue's `reasoning` (overrides applied); undefined when the model is unknown. */
  reasoning: boolean | undefined;
  /** The model's output limit, for Anthropic's budget at `max`. */
  maxOutputTokens: number | undefined;
}

export interface ThinkingPlan {
  /** Fields to fill where the request leaves them unset. */
  config: GenerationConfig;
  /** Set when `off` was asked of a model that cannot stop thinking: what it does instead. */
  cannotTurnOff?: string;
}

/**
 * What an effort means for one request. `effort` undefined = the vendor's default; `utility`
 * requests ignore the effort and think as little as the model allows.
 */
export function thinkingPlan(
  target: ThinkingTarget,
  effort: Effort | undefined,
  options: { utility?: boolean } = {},
): ThinkingPlan {
  switch (target.family) {
    case 'gemini':
      return geminiPlan(target.model, effort, options.utility === true);
    case 'anthropic':
      return anthropicPlan(target, effort, options.utility === true);
    case 'openai-responses':
      return openAIPlan(target, effort, options.utility === true, { explicitOnly: false });
    case 'openai-chat':
      return openAIPlan(target, effort, options.utility === true, { explicitOnly: true });
  }
}

// Gemini --------------------------------------------------------------------------------------

/** Gemini CLI's chat sampling (its `defaultModelConfigs`). */
const GEMINI_CHAT_SAMPLING = { temperature: 1, topP: 0.95, topK: 64 } as const;
/** Gemini CLI's utility calls (titles, summaries): deterministic. */
const GEMINI_UTILITY_SAMPLING = { temperature: 0, topP: 1 } as const;
/** Gemini CLI's budget for 2.5 models. */
export const GEMINI_25_DEFAULT_BUDGET = 8_192;
const GEMINI_25_BUDGETS = { low: 1_024, medium: GEMINI_25_DEFAULT_BUDGET, high: 16_384 } as const;
/** 2.5 Pro cannot think less than this (0 is refused). */
const GEMINI_25_PRO_MIN_BUDGET = 128;

type GeminiGeneration = '2.5' | '3' | undefined;

/** Which thinking knob a Gemini model has: a budget (2.5), a level (3 and later), or none. */
export function geminiGeneration(model: string): GeminiGeneration {
  const match = /(?:^|\/)gemini-(\d+)(?:\.(\d+))?/i.exec(model);
  if (!match) return undefined;
  const major = Number(match[1]);
  if (major >= 3) return '3';
  if (major === 2 && match[2] === '5' && !/image|tts|audio/i.test(model)) return '2.5';
  return undefined;
}

function geminiPlan(model: string, effort: Effort | undefined, utility: boolean): ThinkingPlan {
  const sampling = utility ? GEMINI_UTILITY_SAMPLING : GEMINI_CHAT_SAMPLING;
  const generation = geminiGeneration(model);
  if (generation === '2.5') {
    const pro = /pro/i.test(model);
    const level = utility ? 'off' : (effort ?? 'medium');
    let budget: number;
    let cannotTurnOff: string | undefined;
    if (level === 'off') {
      budget = pro ? GEMINI_25_PRO_MIN_BUDGET : 0;
      if (pro && !utility)
        cannotTurnOff = `${model} cannot turn thinking off; it thinks with the smallest budget (${GEMINI_25_PRO_MIN_BUDGET} tokens).`;
    } else if (level === 'max') budget = pro ? 32_768 : 24_576;
    else budget = GEMINI_25_BUDGETS[level];
    const thinkingConfig: GenerationConfig = {
      thinkingBudget: budget,
      ...(budget > 0 ? { includeThoughts: true } : {}),
    };
    return { config: { ...sampling, ...thinkingConfig }, ...(cannotTurnOff ? { cannotTurnOff } : {}) };
  }
  if (generation === '3') {
    const flash = /flash/i.test(model);
    const level = utility ? 'off' : (effort ?? 'high');
    let thinkingLevel: NonNullable<GenerationConfig['thinkingLevel']>;
    let cannotTurnOff: string | undefined;
    switch (level) {
      case 'off':
        thinkingLevel = flash ? 'MINIMAL' : 'LOW';
        if (!utility)
          cannotTurnOff = `${model} cannot turn thinking off; it thinks at level ${thinkingLevel}, the lowest it has.`;
        break;
      case 'low':
        thinkingLevel = 'LOW';
        break;
      case 'medium':
        thinkingLevel = 'MEDIUM';
        break;
      default:
        thinkingLevel = 'HIGH';
    }
    return {
      config: { ...sampling, thinkingLevel, includeThoughts: true },
      ...(cannotTurnOff ? { cannotTurnOff } : {}),
    };
  }
  // Older models (2.0, 1.5, Gemma) have no thinking to configure.
  return { config: { ...sampling } };
}

// Anthropic -----------------------------------------------------------------------------------

/** Claude Code's budget (with its 32,000-token answers): kodo's default and `high`. */
export const ANTHROPIC_DEFAULT_BUDGET = 31_999;
const ANTHROPIC_BUDGETS = { low: 4_096, medium: 16_000, high: ANTHROPIC_DEFAULT_BUDGET } as const;

function anthropicPlan(target: ThinkingTarget, effort: Effort | undefined, utility: boolean): ThinkingPlan {
  // Off when asked, for utility calls, and for models that do not think; an unknown model
  // thinks only when an effort was asked for explicitly.
  const capable = target.reasoning ?? effort !== undefined;
  const level = utility ? 'off' : (effort ?? 'high');
  if (level === 'off' || !capable) return { config: { thinkingBudget: 0, includeThoughts: false } };
  const budget =
    level === 'max'
      ? Math.max(ANTHROPIC_DEFAULT_BUDGET, (target.maxOutputTokens ?? 0) - 1)
      : ANTHROPIC_BUDGETS[level];
  return { config: { thinkingBudget: budget, includeThoughts: true } };
}

// OpenAI --------------------------------------------------------------------------------------

type ReasoningEffort = NonNullable<GenerationConfig['reasoningEffort']>;

/** Codex's default effort. */
export const OPENAI_DEFAULT_EFFORT: ReasoningEffort = 'medium';

/** Whether an OpenAI model id takes reasoning effort (the o-series, gpt-5 and later, codex). */
export function openAIReasons(model: string): boolean {
  return /^(o\d|gpt-(\d+)|codex)/i.test(model) && !/^gpt-(3|4)/i.test(model);
}

function openAIPlan(
  target: ThinkingTarget,
  effort: Effort | undefined,
  utility: boolean,
  options: { explicitOnly: boolean },
): ThinkingPlan {
  // Chat Completions servers (llama.cpp, vLLM, Ollama, OpenRouter) get an effort only when one
  // was asked for: kodo does not choose one for models it does not know.
  if (options.explicitOnly && (effort === undefined || utility)) return { config: {} };
  const reasons = target.reasoning ?? openAIReasons(target.model);
  if (!reasons && options.explicitOnly === false) return { config: {} };
  const level = utility ? 'low' : (effort ?? OPENAI_DEFAULT_EFFORT);
  const model = target.model.toLowerCase();
  // gpt-5.1 and later take `none`; gpt-5 and its codex models `minimal`; o-series `low` at least.
  const newer = /^gpt-(5\.\d|[6-9])/.test(model);
  switch (level) {
    case 'off': {
      if (options.explicitOnly) return { config: { reasoningEffort: 'none' } };
      if (newer) return { config: { reasoningEffort: 'none' } };
      const lowest: ReasoningEffort = /^gpt-5/.test(model) ? 'minimal' : 'low';
      return {
        config: { reasoningEffort: lowest },
        cannotTurnOff: `${target.model} cannot turn reasoning off; it reasons with effort "${lowest}", the lowest it has.`,
      };
    }
    case 'max':
      // `xhigh` exists from gpt-5.2 (and the codex-max models) on.
      return {
        config: {
          reasoningEffort: /^gpt-(5\.([2-9]|\d\d)|[6-9])|codex-max/.test(model) ? 'xhigh' : 'high',
        },
      };
    default:
      return { config: { reasoningEffort: level } };
  }
}

/** Fills what the request leaves unset from the plan; the request's own fields win. */
export function withPlan(own: GenerationConfig | undefined, plan: ThinkingPlan): GenerationConfig {
  return { ...plan.config, ...stripUndefined(own ?? {}) };
}

function stripUndefined(config: GenerationConfig): GenerationConfig {
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
}
