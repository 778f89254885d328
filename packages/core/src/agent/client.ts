import type { FunctionDeclaration, GenerationConfig, Part } from '../llm/types';
import type { Chat } from './chat';
import type { AgentEvent } from './events';
import { CallIdGenerator, Turn } from './turn';

export interface AgentClientOptions {
  chat: Chat;
  /** Built once per request so it can follow mode or memory changes. */
  systemInstruction: () => string;
  /** Tool declarations for the next request. */
  tools: () => FunctionDeclaration[];
  /** Model round-trips allowed in the session; negative = unlimited (`model.maxSessionTurns`). */
  maxSessionTurns: number;
  generationConfig?: GenerationConfig;
}

/**
 * The outer loop around one model round-trip: turn limits now; hooks, compression and loop
 * detection plug in here as they arrive. `sendMessageStream` yields AgentEvents and returns the
 * finished Turn (with its pending tool calls).
 */
export class AgentClient {
  private sessionTurns = 0;
  private announcedModel: string | undefined;
  private readonly ids = new CallIdGenerator();

  constructor(private readonly options: AgentClientOptions) {}

  get chat(): Chat {
    return this.options.chat;
  }

  get turnsUsed(): number {
    return this.sessionTurns;
  }

  async *sendMessageStream(
    request: Part[],
    signal: AbortSignal,
    promptId: string,
  ): AsyncGenerator<AgentEvent, Turn> {
    const turn = new Turn(promptId, this.ids);
    this.sessionTurns += 1;
    const limit = this.options.maxSessionTurns;
    if (limit >= 0 && this.sessionTurns > limit) {
      turn.outcome = 'max_session_turns';
      yield { type: 'max_session_turns', limit };
      return turn;
    }
    if (signal.aborted) {
      turn.outcome = 'cancelled';
      yield { type: 'user_cancelled' };
      return turn;
    }
    const model = this.options.chat.getModel();
    if (model !== this.announcedModel) {
      this.announcedModel = model;
      yield { type: 'model_info', model };
    }
    const stream = this.options.chat.sendMessageStream(request, {
      signal,
      systemInstruction: this.options.systemInstruction(),
      tools: this.options.tools(),
      ...(this.options.generationConfig ? { config: this.options.generationConfig } : {}),
    });
    yield* turn.run(stream, signal);
    return turn;
  }
}
