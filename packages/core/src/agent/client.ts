import type { ChatCompressor } from '../context/compression';
import { type MaskingOptions, maskOldToolOutputs } from '../context/masking';
import { estimateContentTokens, estimatePartsTokens } from '../context/tokens';
import type { HookHalt } from '../hooks/hook-system';
import { catchHookVerdicts } from '../hooks/model-hooks';
import type { FunctionDeclaration, GenerationConfig, Part } from '../llm/types';
import {
  DEFAULT_LOOP_DETECTION,
  type LoopDetection,
  type LoopDetectionOptions,
  LoopDetector,
} from '../safety/loop-detection';
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
  /** Loop detection (default: on, with the default thresholds). */
  loopDetection?: LoopDetectionOptions;
  /** Compression, masking and the overflow check before each request; off when absent. */
  context?: ContextManagement;
}

export interface ContextManagement {
  compressor: ChatCompressor;
  masking: MaskingOptions;
  contextWindow: (model: string) => number;
  sessionId: string;
  /** Before each compression check with a non-empty history (the PreCompress hook). */
  beforeCompressionCheck?: () => void;
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
  private readonly loops: LoopDetector;
  private loopPromptId: string | undefined;
  private loopNudged = false;

  constructor(private readonly options: AgentClientOptions) {
    this.loops = new LoopDetector(options.loopDetection ?? DEFAULT_LOOP_DETECTION);
  }

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
    if (this.options.context) {
      const prepared = yield* this.prepareContext(this.options.context, request, signal, promptId);
      if (prepared === 'overflow') {
        turn.outcome = 'context_overflow';
        return turn;
      }
    }
    // A model hook (BeforeModel, AfterModel) that stops or blocks ends the chat's stream early;
    // its verdict lands here and becomes an event instead of an error.
    const hookVerdict: { verdict?: HookHalt } = {};
    const chatStream = this.options.chat.sendMessageStream(request, {
      signal,
      promptId,
      systemInstruction: this.options.systemInstruction(),
      tools: this.options.tools(),
      ...(this.options.generationConfig ? { config: this.options.generationConfig } : {}),
    });
    const stream = catchHookVerdicts(chatStream, hookVerdict);
    if (promptId !== this.loopPromptId) {
      this.loopPromptId = promptId;
      this.loops.reset();
      this.loopNudged = false;
    }
    for await (const event of turn.run(stream, signal)) {
      const loop = this.checkForLoop(event);
      if (loop) {
        // Leaving the loop returns the stream: the request is closed and no model turn is kept.
        turn.pendingToolCalls.length = 0;
        turn.loopDetail = loop.detail;
        turn.outcome = this.loopNudged ? 'loop_detected' : 'loop_nudge';
        yield { type: 'loop_detected', detail: loop.detail, action: this.loopNudged ? 'stop' : 'nudge' };
        this.loopNudged = true;
        return turn;
      }
      if (hookVerdict.verdict && event.type === 'finished') continue;
      yield event;
    }
    if (hookVerdict.verdict) {
      turn.pendingToolCalls.length = 0;
      const { action, message } = hookVerdict.verdict;
      const type = action === 'stop' ? 'agent_execution_stopped' : 'agent_execution_blocked';
      yield { type, reason: message };
    }
    return turn;
  }

  /**
   * Before a request: compress the history past the threshold, mask old bulky tool outputs, and
   * refuse to send a request that cannot fit the window.
   */
  private async *prepareContext(
    context: ContextManagement,
    request: Part[],
    signal: AbortSignal,
    promptId: string,
  ): AsyncGenerator<AgentEvent, 'ok' | 'overflow'> {
    const chat = this.options.chat;
    if (context.beforeCompressionCheck && chat.getCuratedHistory().length > 0) {
      context.beforeCompressionCheck();
    }
    if (context.compressor.needsCompression(chat)) {
      const result = await context.compressor.compress(chat, { trigger: 'auto', signal, promptId });
      if (result.status !== 'noop') {
        yield {
          type: 'chat_compressed',
          status: result.status,
          originalTokens: result.originalTokens,
          newTokens: result.newTokens,
        };
      }
    }
    const masked = await maskOldToolOutputs(chat.getHistory(), {
      ...context.masking,
      sessionId: context.sessionId,
    });
    if (masked.maskedCount > 0) chat.setHistory(masked.history);
    const window = context.contextWindow(chat.getModel());
    const used = chat.lastPromptTokens ?? estimateContentTokens(chat.getCuratedHistory());
    const remaining = window - used;
    const estimated = estimatePartsTokens(request);
    if (estimated > remaining) {
      yield { type: 'context_window_will_overflow', estimatedTokens: estimated, remainingTokens: remaining };
      return 'overflow';
    }
    return 'ok';
  }

  private checkForLoop(event: AgentEvent): LoopDetection | undefined {
    if (event.type === 'tool_call_request') return this.loops.onToolCall(event.call.name, event.call.args);
    if (event.type === 'content') return this.loops.onContent(event.text);
    return undefined;
  }
}
