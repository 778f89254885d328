import { ApiError, InvalidStreamError, isAbortError } from '../llm/errors';
import type { FinishReason, Part, UsageMetadata } from '../llm/types';
import type { ChatStreamEvent } from './chat';
import type { AgentEvent, ToolCallRequestInfo } from './events';

/** Makes call ids for function calls the model sent without one: `<name>_<epochMs>_<n>`. */
export class CallIdGenerator {
  private counter = 0;
  next(name: string): string {
    this.counter += 1;
    return `${name}_${Date.now()}_${this.counter}`;
  }
}

export type TurnOutcome =
  | 'completed'
  | 'error'
  | 'cancelled'
  | 'invalid_stream'
  | 'max_session_turns'
  /** A loop was seen for the first time in this prompt: the Session nudges the model. */
  | 'loop_nudge'
  /** A loop was seen again: the prompt stops. */
  | 'loop_detected'
  /** The request would not fit the context window; it was not sent. */
  | 'context_overflow';

/**
 * One model call turned into typed AgentEvents. Collects the function calls the model asked for
 * (`pendingToolCalls`) and the answer text. All failures become events; `run` never throws.
 */
export class Turn {
  readonly pendingToolCalls: ToolCallRequestInfo[] = [];
  finishReason: FinishReason | undefined;
  usage: UsageMetadata | undefined;
  outcome: TurnOutcome = 'completed';
  /** What the loop detector saw, when the outcome is a loop. */
  loopDetail: string | undefined;
  /** Answer text of this turn (no thoughts), reset when a stream is retried. */
  text = '';

  constructor(
    private readonly promptId: string,
    private readonly ids: CallIdGenerator,
  ) {}

  async *run(stream: AsyncGenerator<ChatStreamEvent>, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    try {
      for await (const event of stream) {
        if (signal.aborted) {
          this.outcome = 'cancelled';
          yield { type: 'user_cancelled' };
          return;
        }
        if (event.type === 'model_switched') {
          yield {
            type: 'model_info',
            model: event.to,
            reason: `Switched from ${event.from} to ${event.to} after repeated errors: ${event.reason}`,
          };
          continue;
        }
        if (event.type === 'retry') {
          this.pendingToolCalls.length = 0;
          this.text = '';
          yield { type: 'retry', attempt: event.attempt, delayMs: event.delayMs, reason: event.reason };
          continue;
        }
        yield* this.handleChunk(event.response.candidates?.[0]?.content?.parts ?? []);
        const candidate = event.response.candidates?.[0];
        const citations = candidate?.citationMetadata?.citations;
        if (citations && citations.length > 0) yield { type: 'citation', citations };
        if (event.response.usageMetadata) this.usage = event.response.usageMetadata;
        if (candidate?.finishReason) this.finishReason = candidate.finishReason;
      }
      yield { type: 'finished', reason: this.finishReason, ...(this.usage ? { usage: this.usage } : {}) };
    } catch (error) {
      if (isAbortError(error) || signal.aborted) {
        this.outcome = 'cancelled';
        yield { type: 'user_cancelled' };
        return;
      }
      if (error instanceof InvalidStreamError) {
        this.outcome = 'invalid_stream';
        yield { type: 'invalid_stream', invalidType: error.type, message: error.message };
        return;
      }
      this.outcome = 'error';
      const status = error instanceof ApiError ? error.status : undefined;
      const exitCode = (error as { exitCode?: unknown } | null)?.exitCode;
      yield {
        type: 'error',
        message: error instanceof Error ? error.message : String(error),
        ...(status !== undefined ? { status } : {}),
        ...(typeof exitCode === 'number' ? { exitCode } : {}),
      };
    }
  }

  private *handleChunk(parts: Part[]): Generator<AgentEvent> {
    for (const part of parts) {
      if (part.functionCall) {
        const { id, name, args } = part.functionCall;
        const call: ToolCallRequestInfo = {
          callId: id ?? this.ids.next(name || 'unknown'),
          name: name ?? '',
          args: args && typeof args === 'object' && !Array.isArray(args) ? args : {},
          promptId: this.promptId,
          ...(id ? { providerId: id } : {}),
        };
        this.pendingToolCalls.push(call);
        yield { type: 'tool_call_request', call };
      } else if (typeof part.text === 'string' && part.text !== '') {
        if (part.thought) {
          yield { type: 'thought', text: part.text };
        } else {
          this.text += part.text;
          yield { type: 'content', text: part.text };
        }
      }
    }
  }
}
