import type { AgentEvent, UsageMetadata } from '@kodo/core/engine';
import { lastSafeSplit } from './markdown/split';
import type { InfoTone, LiveBlock, NewHistoryItem, ToolCallView } from './types';

/** How the UI names a call: the tool's display name and a one-line description. */
export type CallDescriber = (
  name: string,
  args: Record<string, unknown>,
) => {
  displayName: string;
  description: string;
};

/** Live shell output kept per call; older output scrolls away (the result has it all). */
const LIVE_OUTPUT_CHARS = 8_000;

/** Steps of a subagent kept for its box; older ones are counted, not kept. */
const SUBAGENT_STEPS = 50;

const FINAL_STATUSES = new Set(['success', 'error', 'cancelled']);

const ANSWERING = 'writing its answer…';

export interface RetryNotice {
  attempt: number;
  delayMs: number;
  reason: string;
  /** Date.now() when the retry was announced. */
  at: number;
}

/**
 * Folds one prompt's AgentEvents into what the UI shows: an ordered list of live blocks (model
 * text, thoughts, tool calls, notices) and the items that are final and leave the live region
 * for the static history. Blocks leave strictly in order, as soon as they can no longer change:
 * text once something follows it, a tool call once it reached a final status. A long answer is
 * also cut at paragraph breaks while it streams, so the live region stays a few lines tall.
 */
export class TurnAccumulator {
  private blocks: LiveBlock[] = [];
  private committed: NewHistoryItem[] = [];
  /** Index of the first block of the current model response (dropped on a stream retry). */
  private attemptStart = 0;
  /** Part of the current response already went to the history (a retry cannot take it back). */
  private attemptCommitted = false;
  private ended = false;
  /** Calls whose response arrived (their status turns final just before it). */
  private readonly answered = new Set<string>();
  retry: RetryNotice | undefined;
  lastUsage: UsageMetadata | undefined;
  /**
   * Date.now() since when a request is out and nothing of its answer has arrived (undefined
   * while the model streams or tools run): a silent model is told apart from a busy one.
   */
  waitingSince: number | undefined = Date.now();
  /** Calls requested and not yet answered; the model is asked again once they all are. */
  private readonly unanswered = new Set<string>();

  constructor(private readonly describe: CallDescriber) {}

  apply(event: AgentEvent): void {
    this.trackWaiting(event);
    switch (event.type) {
      case 'content':
        this.retry = undefined;
        this.appendText('model', event.text);
        break;
      case 'thought':
        this.retry = undefined;
        this.appendText('thought', event.text);
        break;
      case 'tool_call_request': {
        const { displayName, description } = this.describe(event.call.name, event.call.args);
        this.blocks.push({
          kind: 'tool',
          call: {
            callId: event.call.callId,
            name: event.call.name,
            displayName,
            description,
            status: 'validating',
          },
        });
        break;
      }
      case 'tool_call_status':
        this.updateCall(event.callId, (call) => ({ ...call, status: event.status }));
        break;
      case 'tool_call_confirmation':
        this.updateCall(event.call.callId, (call) => ({ ...call, confirmation: event.details }));
        break;
      case 'subagent_event': {
        const step = this.subagentStep(event.event);
        if (step === undefined) break;
        this.updateCall(event.parentCallId, (call) => {
          const steps = call.subagent?.steps ?? [];
          // The answer streams in many chunks: one step for all of it.
          const merged = step === ANSWERING && steps.at(-1) === ANSWERING ? steps : [...steps, step];
          return { ...call, subagent: { agent: event.agent, steps: merged.slice(-SUBAGENT_STEPS) } };
        });
        break;
      }
      case 'tool_progress':
        this.updateCall(event.callId, (call) => ({
          ...call,
          liveOutput: ((call.liveOutput ?? '') + event.output).slice(-LIVE_OUTPUT_CHARS),
        }));
        break;
      case 'tool_call_response': {
        const { response } = event;
        this.answered.add(response.callId);
        this.updateCall(response.callId, (call) => {
          const { liveOutput: _dropped, ...rest } = call;
          return {
            ...rest,
            status: response.status,
            resultDisplay: response.resultDisplay,
            ...(response.error ? { errorMessage: response.error.message } : {}),
          };
        });
        break;
      }
      case 'finished':
        if (event.usage) this.lastUsage = event.usage;
        this.attemptStart = this.blocks.length;
        this.attemptCommitted = false;
        break;
      case 'retry':
        this.dropAttempt();
        this.retry = { attempt: event.attempt, delayMs: event.delayMs, reason: event.reason, at: Date.now() };
        break;
      case 'error':
        this.notice(event.message, 'error');
        break;
      case 'invalid_stream':
        this.notice(event.message, 'error');
        break;
      case 'user_cancelled':
        this.notice('Request cancelled.', 'warning');
        break;
      case 'max_session_turns':
        this.notice(
          `Reached the session turn limit (${event.limit}). Raise model.maxSessionTurns in settings to go on.`,
          'warning',
        );
        break;
      case 'loop_detected':
        this.notice(`A loop was detected and the turn was stopped: ${event.detail}`, 'warning');
        break;
      case 'chat_compressed':
        this.notice(
          `Chat history compressed from ${event.originalTokens} to ${event.newTokens} tokens.`,
          'info',
        );
        break;
      case 'context_window_will_overflow':
        this.notice(
          `The next message may not fit in the context window (${event.estimatedTokens} tokens estimated, ${event.remainingTokens} left). Try /compress or /clear.`,
          'warning',
        );
        break;
      case 'agent_execution_stopped':
        this.notice(`Agent execution stopped: ${event.reason}`, 'warning');
        break;
      case 'agent_execution_blocked':
        this.notice(`Agent execution blocked: ${event.reason}`, 'warning');
        break;
      case 'steering':
        // Every call of the step has answered: the line takes its place after their results.
        this.settle();
        this.committed.push({ kind: 'user', text: event.text });
        break;
      default:
        // model_info and citations are not shown in the transcript.
        break;
    }
    this.settle();
  }

  private trackWaiting(event: AgentEvent): void {
    switch (event.type) {
      case 'content':
      case 'thought':
      case 'finished':
        this.waitingSince = undefined;
        break;
      case 'tool_call_request':
        this.waitingSince = undefined;
        this.unanswered.add(event.call.callId);
        break;
      case 'tool_call_response':
        this.unanswered.delete(event.response.callId);
        // The results go back to the model in one request once every call has answered.
        if (this.unanswered.size === 0) this.waitingSince = Date.now();
        break;
      case 'retry':
        // The next attempt starts after the announced delay (the retry notice covers the delay).
        this.waitingSince = Date.now() + event.delayMs;
        break;
      default:
        break;
    }
  }

  /** Adds a notice (e.g. a failure of the prompt itself) at the end of the turn. */
  notice(text: string, tone: InfoTone): void {
    this.blocks.push({ kind: 'info', text, tone });
    this.settle();
  }

  /** The turn is over: everything still live becomes history. */
  end(): void {
    this.ended = true;
    this.retry = undefined;
    this.waitingSince = undefined;
    this.settle();
  }

  /** Items that became final since the last call, in order. */
  drainCommitted(): NewHistoryItem[] {
    const items = this.committed;
    this.committed = [];
    return items;
  }

  /** The blocks still live (a new array; unchanged blocks keep their identity). */
  live(): LiveBlock[] {
    return [...this.blocks];
  }

  private appendText(kind: 'model' | 'thought', text: string): void {
    const last = this.blocks.at(-1);
    if (last && last.kind === kind) {
      this.blocks[this.blocks.length - 1] = { ...last, text: last.text + text };
    } else if (kind === 'model') {
      this.blocks.push({ kind: 'model', text, continuation: false });
    } else {
      this.blocks.push({ kind: 'thought', text });
    }
    this.splitLongAnswer();
  }

  /** When the only live block is an answer, moves its finished paragraphs to the history. */
  private splitLongAnswer(): void {
    const first = this.blocks[0];
    if (this.blocks.length !== 1 || first?.kind !== 'model') return;
    const cut = lastSafeSplit(first.text);
    if (cut === 0) return;
    const done = first.text.slice(0, cut).replace(/\n+$/, '');
    if (done.trim() !== '') {
      this.committed.push({
        kind: 'model',
        text: done,
        ...(first.continuation ? { continuation: true } : {}),
      });
      this.attemptCommitted = true;
    }
    this.blocks[0] = {
      kind: 'model',
      text: first.text.slice(cut),
      continuation: first.continuation || done.trim() !== '',
    };
  }

  /** One line for a subagent's event: the calls it makes and when it writes its answer. */
  private subagentStep(event: AgentEvent): string | undefined {
    if (event.type === 'tool_call_request') {
      const { displayName, description } = this.describe(event.call.name, event.call.args);
      return `${displayName} ${description}`.trim();
    }
    if (event.type === 'content') return ANSWERING;
    if (event.type === 'error') return `error: ${event.message}`;
    return undefined;
  }

  private updateCall(callId: string, update: (call: ToolCallView) => ToolCallView): void {
    const index = this.blocks.findIndex((b) => b.kind === 'tool' && b.call.callId === callId);
    const block = this.blocks[index];
    if (block?.kind === 'tool') this.blocks[index] = { kind: 'tool', call: update(block.call) };
  }

  private dropAttempt(): void {
    const start = Math.min(this.attemptStart, this.blocks.length);
    const kept = this.blocks.slice(start).filter((b) => b.kind !== 'model' && b.kind !== 'thought');
    this.blocks = [...this.blocks.slice(0, start), ...kept];
    if (this.attemptCommitted) {
      this.blocks.push({
        kind: 'info',
        text: 'The answer above was cut off; the model is answering again.',
        tone: 'warning',
      });
      this.attemptCommitted = false;
    }
    this.attemptStart = this.blocks.length;
  }

  private settle(): void {
    while (this.blocks.length > 0) {
      const first = this.blocks[0]!;
      const final =
        this.ended ||
        first.kind === 'info' ||
        (first.kind === 'tool' && this.answered.has(first.call.callId)) ||
        (first.kind !== 'tool' && this.blocks.length > 1);
      if (!final) break;
      this.blocks.shift();
      this.attemptStart = Math.max(0, this.attemptStart - 1);
      const item = toHistoryItem(first, this.ended);
      if (item) {
        this.committed.push(item);
        if (first.kind === 'model' || first.kind === 'thought') this.attemptCommitted = true;
      }
    }
  }
}

function toHistoryItem(block: LiveBlock, turnEnded: boolean): NewHistoryItem | undefined {
  switch (block.kind) {
    case 'model':
      if (block.text.trim() === '') return undefined;
      return {
        kind: 'model',
        text: block.text.replace(/\n+$/, ''),
        ...(block.continuation ? { continuation: true } : {}),
      };
    case 'thought':
      return block.text.trim() === '' ? undefined : { kind: 'thought', text: block.text };
    case 'tool': {
      // A call still running when the turn ended was cut short by the cancellation.
      const call =
        turnEnded && !FINAL_STATUSES.has(block.call.status)
          ? { ...block.call, status: 'cancelled' as const }
          : block.call;
      const { liveOutput: _dropped, ...rest } = call;
      return { kind: 'tool', call: rest };
    }
    case 'info':
      return { kind: 'info', text: block.text, tone: block.tone };
  }
}
