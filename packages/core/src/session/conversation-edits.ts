import type { Chat } from '../agent/chat';
import type { ChatCompressor, CompressionResult } from '../context/compression';
import type { Content, Part } from '../contracts/messages';
import type { HookSystem } from '../hooks/hook-system';
import type { ChangeFeed } from './change-feed';

/**
 * What a front end changes in the conversation itself, outside a prompt: context added to the
 * next prompt, the model, the whole history replaced or summarised. Each goes to the chat, then
 * to the record and the listeners (ChangeFeed.changed), so no front end touches the chat.
 */
export class ConversationEdits {
  constructor(
    private readonly parts: {
      chat: Chat;
      compressor: ChatCompressor;
      hooks: HookSystem | undefined;
      changes: ChangeFeed;
    },
  ) {}

  /** User content for the next prompt: it joins the last user turn of the history. */
  addContext(parts: Part[]): void {
    if (parts.length === 0) return;
    this.parts.chat.addUserContent(parts);
    this.parts.changes.changed({ type: 'context_added', parts: structuredClone(parts) });
  }

  /** The model for the next requests; the caller checks the name is usable. */
  setModel(model: string): void {
    const { chat } = this.parts;
    const from = chat.getModel();
    if (from === model) return;
    chat.setModel(model);
    this.parts.changes.changed({ type: 'model_changed', from, to: model });
  }

  replaceHistory(history: Content[], change: { reason: 'restore' | 'rewind' | 'clear' | 'replace' }): void {
    this.parts.chat.setHistory(history);
    this.parts.changes.changed({ type: 'history_replaced', reason: change.reason, messages: history.length });
  }

  /** Summarises the history now, whatever its size (`/compress`), as prompt `promptId`. */
  async compress(
    signal: AbortSignal,
    request: { promptId: string; instructions?: string },
  ): Promise<CompressionResult> {
    const { chat, compressor, hooks } = this.parts;
    // As Gemini CLI: an empty history is nothing to compress, and no PreCompress fires.
    if (chat.getCuratedHistory().length > 0) await hooks?.preCompress('manual');
    const result = await compressor.compress(chat, {
      trigger: 'manual',
      signal,
      promptId: request.promptId,
      ...(request.instructions ? { instructions: request.instructions } : {}),
    });
    if (result.status !== 'noop') {
      this.parts.changes.changed({
        type: 'history_replaced',
        reason: 'compress',
        messages: chat.liveHistory().length,
      });
    }
    return result;
  }
}
