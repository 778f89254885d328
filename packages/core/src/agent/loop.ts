import type { AgentEvent, ToolCallRequestInfo } from '../contracts/events';
import type { FunctionDeclaration, GenerationConfig, Part, UsageMetadata } from '../contracts/messages';
import type { HookHalt } from '../hooks/hook-system';
import type { ModelSteps } from '../hooks/model-steps';
import type { PromptHooks } from '../hooks/prompt-hooks';
import { hookContextBlock } from '../hooks/types';
import { LOOP_NUDGE, type LoopDetector } from '../safety/loop-detection';
import { cancelledResponseParts } from '../scheduler/function-response';
import type { CompletedToolCall } from '../scheduler/scheduler';
import type { BudgetExceeded } from './budgets';
import type { Chat } from './chat';
import { type ContextManagement, type ContextOverflow, prepareContext } from './prepare-context';
import { type CallIdGenerator, type ModelFailure, streamTurn } from './turn';

/**
 * How one prompt ended — the one answer Session, headless output, exit codes and the UI read.
 * `text` is the answer of the last model turn (empty when there was none).
 */
export type LoopOutcome = { readonly text: string } & (
  | { readonly kind: 'completed' }
  | { readonly kind: 'cancelled' }
  /** A hook stopped the agent (`continue: false`). */
  | { readonly kind: 'halted_by_hook'; readonly reason: string }
  /** A hook blocked the prompt or a model call (`decision: block`). */
  | { readonly kind: 'blocked_by_hook'; readonly reason: string }
  | { readonly kind: 'budget'; readonly exceeded: BudgetExceeded }
  | { readonly kind: 'turn_limit'; readonly limit: number; readonly scope: 'prompt' | 'session' }
  /** The model looped again after being nudged once. */
  | { readonly kind: 'loop_detected'; readonly detail: string }
  /** The next request would not fit the context window; it was not sent. */
  | ({ readonly kind: 'context_overflow' } & ContextOverflow)
  | { readonly kind: 'error'; readonly failure: ModelFailure }
);

export type LoopOutcomeKind = LoopOutcome['kind'];

/** Limits checked between steps; spending is counted by whoever observes the chat's calls. */
export interface LoopBudget {
  /** `model`: where the request would go (a dollar budget needs its price). */
  beforeRequest(model: string): BudgetExceeded | undefined;
  beforeTools(count: number): BudgetExceeded | undefined;
  recordToolCalls(count: number): void;
}

/** Kept by the owner of the loop across prompts. */
export interface LoopState {
  /** Model round trips so far in the conversation (for `maxSessionTurns`). */
  sessionTurns: number;
  /** The model last announced with `model_info`. */
  announcedModel?: string;
}

/** What the loop shows the session record at a boundary (see `TurnBoundary`). */
export interface LoopBoundary {
  /** User parts about to join the history. */
  pending?: Part[];
  /** The prompt as typed, when `pending` is the prompt. */
  displayText?: string;
  toolCalls?: readonly CompletedToolCall[];
  usage?: UsageMetadata;
}

/**
 * Everything one run of the loop works with, passed in: a subagent runs the same loop with its
 * own chat (history and model), tools, prompt, limits and budget.
 */
export interface AgentLoopDeps {
  chat: Chat;
  /** The system instruction and tool declarations, built per request (they follow mode changes). */
  systemInstruction: () => string;
  tools: () => FunctionDeclaration[];
  generationConfig?: GenerationConfig;
  /** Runs the model's calls (validation, policy, approval, execution), streaming their events. */
  runTools(
    calls: readonly ToolCallRequestInfo[],
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, CompletedToolCall[]>;
  /** The model hooks, run around each request. */
  modelSteps?: ModelSteps;
  /** BeforeAgent and AfterAgent for this prompt. */
  promptHooks?: PromptHooks;
  context?: ContextManagement;
  loops: LoopDetector;
  ids: CallIdGenerator;
  /** Model round trips for this prompt, and for the whole conversation (negative = unlimited). */
  maxTurnsPerPrompt: number;
  maxSessionTurns: number;
  state: LoopState;
  budget?: LoopBudget;
  /** Makes the conversation durable at a boundary; nothing is recorded when absent. */
  record?: (boundary: LoopBoundary) => void;
  /** Lines the person sent while the model worked, taken at each step boundary (see steering.ts). */
  steering?: {
    take(): string[];
    /** Gives back lines taken that no model turn answered (the request failed or never went). */
    restore(lines: string[]): void;
  };
}

export interface PromptInput {
  parts: Part[];
  /** The prompt as the person typed it, for the record. */
  displayText?: string;
  /** Put before the prompt once it passed BeforeAgent (the environment context of a first prompt). */
  preamble?: Part[];
  promptId: string;
}

export interface LoopResult {
  outcome: LoopOutcome;
  /** Whether the prompt (and its preamble) is in the history now: false when nothing answered it. */
  promptKept: boolean;
}

/**
 * One prompt's whole cycle: prepare the context → stream one model turn → decide → run the
 * tools → repeat, until the model stops asking for tools, a limit or budget is reached, a hook
 * halts, or the signal aborts.
 *
 * History rules, applied once for every exit in the `finally`:
 * - parts are only added to the chat when they are sent; those built but never sent are
 *   tool responses (kept, so every call in the history has its answer) or text (dropped);
 * - text sent with no answer (the request failed, was cancelled or was cut) is withdrawn, so a
 *   failed prompt is never re-sent unseen with the next one. A BeforeAgent stop keeps its prompt.
 */
export async function* runAgentLoop(
  deps: AgentLoopDeps,
  input: PromptInput,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, LoopResult> {
  const progress: PromptProgress = {
    unsent: [],
    unanswered: 0,
    answered: false,
    promptKept: true,
    steered: [],
  };
  // `promptKept` is read once the loop is done, after the `finally` may have withdrawn the prompt.
  const result = (outcome: LoopOutcome): LoopResult => ({
    outcome,
    get promptKept() {
      return progress.promptKept;
    },
  });
  try {
    const { chat } = deps;
    const gate = yield* beforeAgent(deps, input, signal);
    if (gate.outcome) {
      progress.promptKept = gate.outcome.kind === 'halted_by_hook';
      return result(gate.outcome);
    }
    progress.unsent = gate.parts;
    let text = '';
    deps.loops.reset();
    let nudged = false;

    for (let roundTrip = 1; ; roundTrip += 1) {
      const displayText = roundTrip === 1 ? input.displayText : undefined;
      const stop = yield* beforeRequest(deps, roundTrip, signal);
      if (stop) return result({ ...stop, text });
      if (deps.context) {
        const overflow = yield* prepareContext(chat, deps.context, {
          parts: progress.unsent,
          signal,
          promptId: input.promptId,
        });
        if (overflow) return result({ kind: 'context_overflow', ...overflow, text });
      }
      // What is sent is on disk before the request goes out.
      const parts = progress.unsent;
      deps.record?.({ pending: parts, ...(displayText !== undefined ? { displayText } : {}) });
      progress.unsent = [];
      progress.unanswered += trailingTextParts(parts);

      const stream = chat.sendMessageStream(parts, {
        signal,
        promptId: input.promptId,
        systemInstruction: deps.systemInstruction(),
        tools: deps.tools(),
        ...(deps.generationConfig ? { config: deps.generationConfig } : {}),
        ...(deps.modelSteps ? { steps: deps.modelSteps } : {}),
      });
      const turn = yield* streamTurn(stream, {
        signal,
        promptId: input.promptId,
        ids: deps.ids,
        watch: (event) => loopIn(deps.loops, event),
      });
      deps.record?.(turn.usage ? { usage: turn.usage } : {});
      text = turn.text;
      switch (turn.end.kind) {
        case 'looped':
          // The request was closed: no model turn is kept and its calls never run.
          yield { type: 'loop_detected', detail: turn.end.detail, action: nudged ? 'stop' : 'nudge' };
          if (nudged) return result({ kind: 'loop_detected', detail: turn.end.detail, text });
          nudged = true;
          progress.unsent = [{ text: LOOP_NUDGE(turn.end.detail) }];
          continue;
        case 'cancelled':
          return result({ kind: 'cancelled', text });
        case 'failed':
          return result({ kind: 'error', failure: turn.end.failure, text });
        case 'halted':
          yield haltEvent(turn.end.halt);
          return result(haltOutcome(turn.end.halt, text));
      }
      progress.unanswered = 0;
      progress.answered = true;
      progress.steered = [];
      deps.promptHooks?.recordTurn(turn.text);

      if (turn.calls.length === 0) {
        const after = yield* afterAgent(deps, text, signal);
        if (after.retryPrompt === undefined) return result(after.outcome);
        progress.unsent = [{ text: after.retryPrompt }];
        continue;
      }
      const refused = deps.budget?.beforeTools(turn.calls.length);
      if (refused) {
        progress.unsent = yield* refuseCalls(deps, turn.calls, refused);
        return result({ kind: 'budget', exceeded: refused, text });
      }
      const completed = yield* deps.runTools(turn.calls, signal);
      deps.budget?.recordToolCalls(completed.length);
      progress.unsent = completed.flatMap((call) => call.response.responseParts);
      // Results that were shown are on disk before anything else happens.
      deps.record?.({ pending: progress.unsent, toolCalls: completed });
      const stopped = completed.find((call) => call.hookStopMessage !== undefined);
      if (stopped && !signal.aborted) {
        yield { type: 'agent_execution_stopped', reason: stopped.hookStopMessage! };
        return result({ kind: 'halted_by_hook', reason: stopped.hookStopMessage!, text: '' });
      }
      if (signal.aborted) {
        yield { type: 'user_cancelled' };
        return result({ kind: 'cancelled', text: '' });
      }
      // The step boundary: what the person typed meanwhile goes in after the tool results.
      for (const line of deps.steering?.take() ?? []) {
        yield { type: 'steering', text: line };
        progress.unsent.push({ text: line });
        progress.steered.push(line);
      }
    }
  } finally {
    settleHistory(deps, progress);
  }
}

/** Where a prompt's parts stand in the history; read by `settleHistory` at the exit. */
interface PromptProgress {
  /** Built for the next request, not yet in the chat. */
  unsent: Part[];
  /** Trailing text parts of the last user turn that no model turn has answered yet. */
  unanswered: number;
  /** Some model turn answered this prompt. */
  answered: boolean;
  promptKept: boolean;
  /** Steering lines taken at the last step boundary that no model turn has answered yet. */
  steered: string[];
}

/** The one place where every exit leaves a valid history and a record of it. */
function settleHistory(deps: AgentLoopDeps, progress: PromptProgress): void {
  // A steered line the model never read (its request failed, or the loop stopped before sending
  // it) is withdrawn or dropped below with the other text: it goes back to the inbox, so the
  // front end sends it next instead of losing it.
  if (progress.steered.length > 0) deps.steering?.restore(progress.steered);
  const responses = progress.unsent.filter((part) => part.functionResponse);
  if (responses.length > 0) deps.chat.addUserContent(responses);
  if (progress.unanswered > 0) {
    deps.chat.withdrawUserParts(progress.unanswered);
    if (!progress.answered) progress.promptKept = false;
  }
  if (responses.length > 0 || progress.unanswered > 0) deps.record?.({});
}

/** The start of a prompt: BeforeAgent may block it, stop it, or add context. */
async function* beforeAgent(
  deps: AgentLoopDeps,
  input: PromptInput,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, { parts: Part[]; outcome?: LoopOutcome }> {
  const gate = await deps.promptHooks?.beforeAgent(signal);
  if (gate?.action === 'block') {
    yield { type: 'agent_execution_blocked', reason: gate.message };
    return { parts: [], outcome: { kind: 'blocked_by_hook', reason: gate.message, text: '' } };
  }
  const context = gate?.action === 'continue' && gate.additionalContext;
  const parts = [
    ...(input.preamble ?? []),
    ...input.parts,
    ...(context ? [{ text: hookContextBlock(context) }] : []),
  ];
  if (gate?.action === 'stop') {
    // A stopped prompt stays in the history (a blocked one does not), as in Gemini CLI.
    deps.chat.addUserContent(parts);
    deps.record?.({ ...(input.displayText !== undefined ? { displayText: input.displayText } : {}) });
    yield { type: 'agent_execution_stopped', reason: gate.message };
    return { parts: [], outcome: { kind: 'halted_by_hook', reason: gate.message, text: '' } };
  }
  return { parts };
}

/** The limits checked before each request: turns, the signal, the model announcement, budgets. */
async function* beforeRequest(
  deps: AgentLoopDeps,
  roundTrip: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, DistributiveOmit<LoopOutcome, 'text'> | undefined> {
  if (roundTrip > deps.maxTurnsPerPrompt) {
    // An agent still calling tools after this many model turns is more likely stuck than working.
    yield { type: 'max_session_turns', limit: deps.maxTurnsPerPrompt };
    return { kind: 'turn_limit', limit: deps.maxTurnsPerPrompt, scope: 'prompt' };
  }
  const overBudget = deps.budget?.beforeRequest(deps.chat.getModel());
  if (overBudget) {
    yield budgetEvent(overBudget);
    return { kind: 'budget', exceeded: overBudget };
  }
  deps.state.sessionTurns += 1;
  const limit = deps.maxSessionTurns;
  if (limit >= 0 && deps.state.sessionTurns > limit) {
    yield { type: 'max_session_turns', limit };
    return { kind: 'turn_limit', limit, scope: 'session' };
  }
  if (signal.aborted) {
    yield { type: 'user_cancelled' };
    return { kind: 'cancelled' };
  }
  const model = deps.chat.getModel();
  if (model !== deps.state.announcedModel) {
    deps.state.announcedModel = model;
    yield { type: 'model_info', model };
  }
  return undefined;
}

/** The model answered without asking for tools: AfterAgent may accept, stop, or send it back. */
async function* afterAgent(
  deps: AgentLoopDeps,
  text: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, { outcome: LoopOutcome; retryPrompt?: string }> {
  const after = await deps.promptHooks?.afterAgent(signal);
  if (after?.clearContext) {
    deps.chat.setHistory([]);
    deps.record?.({});
  }
  if (after?.kind === 'stop') {
    yield { type: 'agent_execution_stopped', reason: after.message };
    return { outcome: { kind: 'halted_by_hook', reason: after.message, text } };
  }
  if (after?.kind === 'retry') {
    // The hook rejected the answer: its reason becomes the next prompt.
    yield { type: 'agent_execution_blocked', reason: after.message };
    return { outcome: { kind: 'completed', text }, retryPrompt: after.prompt };
  }
  return { outcome: { kind: 'completed', text } };
}

/**
 * A budget ran out before the model's calls could run: each is answered as cancelled (so the
 * history stays valid for a later prompt or a resume), recorded, and the stop is announced.
 */
async function* refuseCalls(
  deps: AgentLoopDeps,
  calls: readonly ToolCallRequestInfo[],
  exceeded: BudgetExceeded,
): AsyncGenerator<AgentEvent, Part[]> {
  const reason = `${exceeded.message} The session was stopped before this call ran.`;
  const refused: CompletedToolCall[] = calls.map((request) => ({
    request,
    response: {
      callId: request.callId,
      name: request.name,
      status: 'cancelled',
      responseParts: cancelledResponseParts(request, reason, { beforeExecution: true }),
      resultDisplay: reason,
      durationMs: 0,
    },
  }));
  for (const call of refused) yield { type: 'tool_call_response', response: call.response };
  const parts = refused.flatMap((call) => call.response.responseParts);
  deps.record?.({ pending: parts, toolCalls: refused });
  yield budgetEvent(exceeded);
  return parts;
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

function haltEvent(halt: HookHalt): AgentEvent {
  const type = halt.action === 'stop' ? 'agent_execution_stopped' : 'agent_execution_blocked';
  return { type, reason: halt.message };
}

function haltOutcome(halt: HookHalt, text: string): LoopOutcome {
  return halt.action === 'stop'
    ? { kind: 'halted_by_hook', reason: halt.message, text }
    : { kind: 'blocked_by_hook', reason: halt.message, text };
}

/** A repeated tool call or chanted text in this event, as the detector describes it. */
function loopIn(loops: LoopDetector, event: AgentEvent): string | undefined {
  if (event.type === 'tool_call_request') return loops.onToolCall(event.call.name, event.call.args)?.detail;
  if (event.type === 'content') return loops.onContent(event.text)?.detail;
  return undefined;
}

/** How many parts at the end of `parts` are not function responses (what could be withdrawn). */
function trailingTextParts(parts: readonly Part[]): number {
  let count = 0;
  for (let index = parts.length - 1; index >= 0 && !parts[index]!.functionResponse; index -= 1) count += 1;
  return count;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
