import type { ContentGenerator } from '../contracts/content-generator';
import type { CompressionStatus } from '../contracts/events';
import { type Content, type Part, responseText } from '../contracts/messages';
import { capToolOutput, type OutputLimit } from '../tools/output-limit';
import {
  COMPRESSION_SYSTEM_PROMPT,
  NEW_SNAPSHOT_ANCHOR,
  SCRATCHPAD_INSTRUCTION,
  SUMMARY_ACK,
  UPDATE_SNAPSHOT_ANCHOR,
  VERIFY_INSTRUCTION,
} from './compression-prompt';
import { estimateContentTokens, estimatePartTokens } from './tokens';

export interface CompressionOptions {
  /** Compress automatically once the prompt uses this share of the window (`model.compressionThreshold`). */
  thresholdShare: number;
  /** The model's context window in tokens. */
  contextWindow: (model: string) => number;
  /** Tokens of function responses kept whole, newest first, before older ones are cut (50,000). */
  functionResponseBudget: number;
  /** How cut function responses are shortened and where their full text goes. */
  outputLimit: OutputLimit;
}

export const DEFAULT_COMPRESSION: Omit<CompressionOptions, 'contextWindow' | 'outputLimit'> = {
  thresholdShare: 0.5,
  functionResponseBudget: 50_000,
};

export interface CompressionResult {
  status: CompressionStatus;
  originalTokens: number;
  newTokens: number;
}

/** Share of the history (by JSON size) that is summarised; the rest is kept verbatim. */
const SUMMARISED_SHARE = 0.7;
const ENVIRONMENT_MARKER = 'This is the kodo CLI.';

/** What compression needs of a conversation (the agent's `Chat` is one). */
export interface CompressibleChat {
  getModel(): string;
  getCuratedHistory(): Content[];
  setHistory(history: Content[]): void;
  lastPromptTokens: number | undefined;
}

/**
 * Compresses a chat's history when it grows past the threshold (or on `/compress`): the older
 * ~70% becomes a structured `<state_snapshot>` written by the model (one call, then one call to
 * check it), the newest ~30% stays verbatim. Function calls and their responses are never split.
 */
export class ChatCompressor {
  /** After an automatic attempt made the history bigger, later automatic ones only truncate. */
  private autoInflated = false;

  constructor(
    private readonly generator: ContentGenerator,
    private readonly options: CompressionOptions,
  ) {}

  /** Whether the last request used enough of the window to compress before the next one. */
  needsCompression(chat: CompressibleChat): boolean {
    const used = chat.lastPromptTokens;
    if (used === undefined) return false;
    return used >= this.options.thresholdShare * this.options.contextWindow(chat.getModel());
  }

  async compress(
    chat: CompressibleChat,
    options: {
      trigger: 'auto' | 'manual';
      signal: AbortSignal;
      promptId: string;
      /** What the person wants the summary to keep (`/compress <instructions>`). */
      instructions?: string;
    },
  ): Promise<CompressionResult> {
    const history = chat.getCuratedHistory();
    const originalTokens = chat.lastPromptTokens ?? estimateContentTokens(history);
    if (history.length === 0) return { status: 'noop', originalTokens, newTokens: originalTokens };
    const truncateOnly = options.trigger === 'auto' && this.autoInflated;
    // One prompt followed only by tool turns has nowhere to split, and stays so turn after turn:
    // tell that from the roles before copying and measuring the whole history each time.
    if (!truncateOnly && !canSplit(history)) {
      return { status: 'noop', originalTokens, newTokens: originalTokens };
    }

    const truncated = await this.truncateOldFunctionResponses(history, options.promptId);
    if (truncateOnly) {
      const newTokens = estimateContentTokens(truncated);
      if (newTokens < estimateContentTokens(history)) {
        chat.setHistory(truncated);
        return { status: 'content_truncated', originalTokens, newTokens };
      }
      return { status: 'noop', originalTokens, newTokens: originalTokens };
    }

    const split = findSplitPoint(truncated);
    if (split <= 0) return { status: 'noop', originalTokens, newTokens: originalTokens };
    const toCompress = truncated.slice(0, split);
    const kept = truncated.slice(split);

    const summary = await this.summarise(chat.getModel(), toCompress, options);
    if (summary === '') return { status: 'failed_empty_summary', originalTokens, newTokens: originalTokens };

    const environment = firstEnvironmentPart(history);
    const rebuilt: Content[] = [
      { role: 'user', parts: [...(environment ? [environment] : []), { text: summary }] },
      { role: 'model', parts: [{ text: SUMMARY_ACK }] },
      ...kept,
    ];
    const newTokens = estimateContentTokens(rebuilt);
    if (newTokens > estimateContentTokens(history)) {
      if (options.trigger === 'auto') this.autoInflated = true;
      return { status: 'failed_inflated', originalTokens, newTokens };
    }
    chat.setHistory(rebuilt);
    chat.lastPromptTokens = newTokens;
    return { status: 'compressed', originalTokens, newTokens };
  }

  private async summarise(
    model: string,
    toCompress: Content[],
    { signal, instructions }: { signal: AbortSignal; instructions?: string },
  ): Promise<string> {
    const hasSnapshot = toCompress.some((content) =>
      content.parts.some((part) => part.text?.includes('<state_snapshot>')),
    );
    const ask: Content = {
      role: 'user',
      parts: [
        { text: (hasSnapshot ? UPDATE_SNAPSHOT_ANCHOR : NEW_SNAPSHOT_ANCHOR) + SCRATCHPAD_INSTRUCTION },
        ...(instructions ? [{ text: `The user asks the snapshot to keep in mind: ${instructions}` }] : []),
      ],
    };
    const first = await this.generator.generateContent(
      { model, contents: [...toCompress, ask], systemInstruction: COMPRESSION_SYSTEM_PROMPT },
      signal,
    );
    const draft = extractSnapshot(responseText(first));
    if (draft === '') return '';
    const verified = await this.generator.generateContent(
      {
        model,
        contents: [
          ...toCompress,
          ask,
          { role: 'model', parts: [{ text: draft }] },
          { role: 'user', parts: [{ text: VERIFY_INSTRUCTION }] },
        ],
        systemInstruction: COMPRESSION_SYSTEM_PROMPT,
      },
      signal,
    );
    return extractSnapshot(responseText(verified)) || draft;
  }

  /**
   * Walks newest → oldest; once the function responses seen pass the budget, each older one is
   * cut to head + tail with its full text saved to a file.
   */
  private async truncateOldFunctionResponses(history: Content[], promptId: string): Promise<Content[]> {
    const out = structuredClone(history);
    let seen = 0;
    for (let i = out.length - 1; i >= 0; i -= 1) {
      for (const part of out[i]!.parts) {
        if (!part.functionResponse) continue;
        seen += estimatePartTokens(part);
        if (seen <= this.options.functionResponseBudget) continue;
        await this.shorten(part, promptId);
      }
    }
    return out;
  }

  private async shorten(part: Part, promptId: string): Promise<void> {
    const response = part.functionResponse!.response;
    const key =
      typeof response.output === 'string'
        ? 'output'
        : typeof response.content === 'string'
          ? 'content'
          : undefined;
    const text = key ? (response[key] as string) : JSON.stringify(response);
    const capped = await capToolOutput(text, {
      limit: this.options.outputLimit,
      callId: `${part.functionResponse!.name}_${part.functionResponse!.id ?? 'compressed'}`,
      promptId,
    });
    if (capped === text) return;
    part.functionResponse!.response = key ? { ...response, [key]: capped } : { output: capped };
  }
}

/**
 * Index of the first turn to keep: the first user turn that is not a function response at or
 * after 70% of the history's JSON size. With none, everything is summarised if the history ends
 * with a model turn that asks for no tools; otherwise the last usable split point.
 */
export function findSplitPoint(history: Content[]): number {
  const sizes = history.map((content) => JSON.stringify(content).length);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let running = 0;
  let lastValid = 0;
  for (let i = 0; i < history.length; i += 1) {
    const content = history[i]!;
    const isPlainUser = content.role === 'user' && !content.parts.some((part) => part.functionResponse);
    if (isPlainUser) {
      if (running >= total * SUMMARISED_SHARE) return i;
      lastValid = i;
    }
    running += sizes[i]!;
  }
  const last = history.at(-1);
  if (last?.role === 'model' && !last.parts.some((part) => part.functionCall)) return history.length;
  return lastValid;
}

/**
 * Whether `findSplitPoint` can return more than 0: a plain user turn after the first entry, or a
 * final model turn that asks for no tools. Shortening function responses changes neither.
 */
function canSplit(history: Content[]): boolean {
  const last = history.at(-1);
  if (last?.role === 'model' && !last.parts.some((part) => part.functionCall)) return true;
  for (let i = 1; i < history.length; i += 1) {
    const content = history[i]!;
    if (content.role === 'user' && !content.parts.some((part) => part.functionResponse)) return true;
  }
  return false;
}

function extractSnapshot(text: string): string {
  const match = /<state_snapshot>[\s\S]*<\/state_snapshot>/.exec(text);
  return (match ? match[0] : text).trim();
}

function firstEnvironmentPart(history: Content[]): Part | undefined {
  return history[0]?.parts.find((part) => part.text?.startsWith(ENVIRONMENT_MARKER));
}
