import type { ChatCompressor } from '../context/compression';
import { type MaskingOptions, maskOldToolOutputs } from '../context/masking';
import { estimateContentTokens, estimatePartsTokens } from '../context/tokens';
import type { AgentEvent } from '../contracts/events';
import type { Part } from '../contracts/messages';
import type { Chat } from './chat';

/** Compression, masking and the overflow check that run before each request. */
export interface ContextManagement {
  compressor: ChatCompressor;
  masking: MaskingOptions;
  contextWindow: (model: string) => number;
  sessionId: string;
  /**
   * Before each compression check with a non-empty history (the PreCompress hook, trigger
   * `auto`); awaited, so a compression that follows starts once it is done.
   */
  beforeCompressionCheck?: (check: { compressing: boolean }) => Promise<void>;
}

/** The request does not fit what is left of the context window; it must not be sent. */
export interface ContextOverflow {
  estimatedTokens: number;
  remainingTokens: number;
}

/**
 * Before a request: compress the history past the threshold, mask old bulky tool outputs, and
 * say whether the request can fit the window. Yields `chat_compressed` when something changed.
 */
export async function* prepareContext(
  chat: Chat,
  context: ContextManagement,
  request: { parts: Part[]; signal: AbortSignal; promptId: string },
): AsyncGenerator<AgentEvent, ContextOverflow | undefined> {
  const compressing = context.compressor.needsCompression(chat);
  if (context.beforeCompressionCheck && chat.getCuratedHistory().length > 0) {
    await context.beforeCompressionCheck({ compressing });
  }
  if (compressing) {
    const result = await context.compressor.compress(chat, {
      trigger: 'auto',
      signal: request.signal,
      promptId: request.promptId,
    });
    if (result.status !== 'noop') {
      yield {
        type: 'chat_compressed',
        status: result.status,
        originalTokens: result.originalTokens,
        newTokens: result.newTokens,
      };
    }
  }
  // Masking walks the history; the running count says first whether there is enough to mask.
  const { protectedTokens, minPrunableTokens } = context.masking;
  // Without a spill directory nothing may be masked (nothing may be lost), so there is no walk.
  if (context.masking.spillDir && chat.toolOutputTokens() >= protectedTokens + minPrunableTokens) {
    // The live history, not a copy: masking only reads it, and copies only the entries it changes.
    const masked = await maskOldToolOutputs(chat.liveHistory(), {
      ...context.masking,
      sessionId: context.sessionId,
    });
    if (masked.maskedCount > 0) chat.replaceHistory(masked.history);
  }
  const window = context.contextWindow(chat.getModel());
  const used = chat.lastPromptTokens ?? estimateContentTokens(chat.getCuratedHistory());
  const remaining = window - used;
  const estimated = estimatePartsTokens(request.parts);
  if (estimated <= remaining) return undefined;
  yield { type: 'context_window_will_overflow', estimatedTokens: estimated, remainingTokens: remaining };
  return { estimatedTokens: estimated, remainingTokens: remaining };
}
