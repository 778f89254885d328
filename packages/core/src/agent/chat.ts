import type { ContentGenerator } from '../llm/content-generator';
import { InvalidStreamError, type InvalidStreamType, isAbortError } from '../llm/errors';
import type {
  Content,
  FinishReason,
  FunctionDeclaration,
  GenerateRequest,
  GenerateResponse,
  GenerationConfig,
  Part,
  UsageMetadata,
} from '../llm/types';
import { monotonicMs } from '../utils/clock';
import { backoffDelayMs, sleep as defaultSleep, isRetryableError, type RetryPolicy } from './retry';

/** Receives one record per model request attempt (session stats). */
export interface ApiCallObserver {
  onApiResponse(info: { model: string; durationMs: number; usage: UsageMetadata | undefined }): void;
  onApiError(info: { model: string; durationMs: number; errorType: string }): void;
}

export type ChatStreamEvent =
  | { type: 'chunk'; response: GenerateResponse }
  /** The attempt failed and another starts: consumers drop the attempt's partial output. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string };

export interface SendOptions {
  signal: AbortSignal;
  systemInstruction?: string;
  tools?: FunctionDeclaration[];
  config?: GenerationConfig;
}

export interface ChatOptions {
  generator: ContentGenerator;
  model: string;
  retry: RetryPolicy;
  observer?: ApiCallObserver;
  history?: Content[];
  /** Injected for tests; waits `ms` or rejects on abort. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const RETRY_NUDGES: Partial<Record<InvalidStreamType, string>> = {
  THINKING_ONLY_RESPONSE:
    '\n[System: You previously generated thoughts but failed to provide a final user-facing response. Please ensure you provide your final answer or call a tool now.]',
  NO_RESPONSE_TEXT:
    '\n[System: You previously returned an empty response with no text or thoughts. Please ensure you provide your final answer or call a tool now.]',
};

/**
 * The conversation with one model: history, streaming and retries.
 *
 * - The user turn joins the history when it is sent; the model turn only once its stream ended
 *   valid and complete. A failed send leaves the user turn in place, and the next user turn merges
 *   into it, so function calls and responses always stay paired and roles keep alternating.
 * - Opening a request retries 429/5xx/network errors with exponential backoff and jitter,
 *   honouring Retry-After. A stream that breaks or ends invalid is retried from the start, with a
 *   `retry` event so front ends drop the partial output.
 */
export class Chat {
  private history: Content[];
  private model: string;
  private readonly generator: ContentGenerator;
  private readonly retry: RetryPolicy;
  private readonly observer: ApiCallObserver | undefined;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(options: ChatOptions) {
    this.generator = options.generator;
    this.model = options.model;
    this.retry = options.retry;
    this.observer = options.observer;
    this.history = options.history ? structuredClone(options.history) : [];
    this.sleep = options.sleep ?? defaultSleep;
  }

  getModel(): string {
    return this.model;
  }

  setModel(model: string): void {
    this.model = model;
  }

  /** Every turn as recorded. */
  getHistory(): Content[] {
    return structuredClone(this.history);
  }

  /** The history sent to the model: model turns without usable parts are left out. */
  getCuratedHistory(): Content[] {
    return this.history.filter((content) => content.role === 'user' || content.parts.length > 0);
  }

  setHistory(history: Content[]): void {
    this.history = structuredClone(history);
  }

  /** Adds a user turn without sending it (e.g. the responses of cancelled tool calls). */
  addUserContent(parts: Part[]): void {
    const last = this.history.at(-1);
    if (last?.role === 'user') {
      last.parts.push(...structuredClone(parts));
    } else {
      this.history.push({ role: 'user', parts: structuredClone(parts) });
    }
  }

  async *sendMessageStream(parts: Part[], options: SendOptions): AsyncGenerator<ChatStreamEvent> {
    const isFunctionResponse = parts.length > 0 && parts.every((part) => part.functionResponse);
    this.addUserContent(parts);
    let systemInstruction = options.systemInstruction;

    for (let attempt = 1; ; attempt += 1) {
      const request: GenerateRequest = {
        model: this.model,
        contents: this.getCuratedHistory(),
        ...(systemInstruction !== undefined ? { systemInstruction } : {}),
        ...(options.tools && options.tools.length > 0 ? { tools: options.tools } : {}),
        ...(options.config ? { config: options.config } : {}),
      };
      const collected: GenerateResponse[] = [];
      try {
        for await (const response of this.openStream(request, options.signal)) {
          if (response.type === 'retry') {
            yield response;
            continue;
          }
          collected.push(response.response);
          yield response;
        }
        const problem = classifyStream(collected, { isFunctionResponse });
        if (!problem) {
          this.history.push({ role: 'model', parts: consolidateParts(collectParts(collected)) });
          return;
        }
        throw new InvalidStreamError(problem);
      } catch (error) {
        if (isAbortError(error) || options.signal.aborted) throw error;
        const retryable = error instanceof InvalidStreamError || isRetryableError(error);
        if (!retryable || attempt >= this.retry.streamMaxAttempts) throw error;
        const delayMs = this.retry.streamInitialDelayMs * 2 ** (attempt - 1);
        yield { type: 'retry', attempt: attempt + 1, delayMs, reason: describeError(error) };
        await this.sleep(delayMs, options.signal);
        if (error instanceof InvalidStreamError) {
          const nudge = RETRY_NUDGES[error.type];
          if (nudge) systemInstruction = `${options.systemInstruction ?? ''}${nudge}`;
        }
      }
    }
  }

  /**
   * Opens the stream, retrying failures that happen before the first chunk; later failures are
   * thrown to `sendMessageStream`, which restarts the whole attempt.
   */
  private async *openStream(request: GenerateRequest, signal: AbortSignal): AsyncGenerator<ChatStreamEvent> {
    for (let attempt = 1; ; attempt += 1) {
      const started = monotonicMs();
      let lastUsage: UsageMetadata | undefined;
      let receivedAny = false;
      try {
        for await (const chunk of this.generator.generateContentStream(request, signal)) {
          receivedAny = true;
          if (chunk.usageMetadata) lastUsage = chunk.usageMetadata;
          yield { type: 'chunk', response: chunk };
        }
        this.observer?.onApiResponse({
          model: request.model,
          durationMs: monotonicMs() - started,
          usage: lastUsage,
        });
        return;
      } catch (error) {
        if (!isAbortError(error)) {
          this.observer?.onApiError({
            model: request.model,
            durationMs: monotonicMs() - started,
            errorType: errorTypeName(error),
          });
        }
        if (receivedAny || isAbortError(error) || signal.aborted) throw error;
        if (!isRetryableError(error) || attempt >= this.retry.maxAttempts) throw error;
        const delayMs = backoffDelayMs(this.retry, attempt, error);
        yield { type: 'retry', attempt: attempt + 1, delayMs, reason: describeError(error) };
        await this.sleep(delayMs, signal);
      }
    }
  }
}

const ZERO_WIDTH = /[\u200B-\u200D\uFEFF]/g;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/** Why a finished stream is unusable (reference §8.3), or undefined when it is fine. */
export function classifyStream(
  chunks: GenerateResponse[],
  options: { isFunctionResponse: boolean },
): InvalidStreamType | undefined {
  const parts = collectParts(chunks);
  if (parts.some((part) => part.functionCall)) return undefined;
  let finishReason: FinishReason | undefined;
  for (const chunk of chunks) {
    const reason = chunk.candidates?.[0]?.finishReason;
    if (reason) finishReason = reason;
  }
  const text = parts
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('')
    .replace(ZERO_WIDTH, '')
    .replace(HTML_COMMENT, '')
    .trim();
  const hasThoughts = parts.some((part) => part.thought && part.text);

  if (finishReason === 'MALFORMED_FUNCTION_CALL') return 'MALFORMED_FUNCTION_CALL';
  if (finishReason === 'UNEXPECTED_TOOL_CALL') return 'UNEXPECTED_TOOL_CALL';
  if (!finishReason) return options.isFunctionResponse ? undefined : 'NO_FINISH_REASON';
  if (text !== '') return undefined;
  switch (finishReason) {
    case 'MAX_TOKENS':
      return 'MAX_TOKENS_EXCEEDED';
    case 'SAFETY':
      return 'SAFETY_BLOCKED';
    case 'RECITATION':
      return 'RECITATION_BLOCKED';
    case 'OTHER':
      return 'OTHER_BLOCKED';
  }
  if (hasThoughts) return 'THINKING_ONLY_RESPONSE';
  return options.isFunctionResponse ? undefined : 'NO_RESPONSE_TEXT';
}

function collectParts(chunks: GenerateResponse[]): Part[] {
  return chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
}

/** Joins adjacent text parts of the same kind so history stays compact. */
export function consolidateParts(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    const previous = out.at(-1);
    const isPlainText = typeof part.text === 'string' && part.thoughtSignature === undefined;
    if (
      previous &&
      isPlainText &&
      typeof previous.text === 'string' &&
      Boolean(previous.thought) === Boolean(part.thought) &&
      Object.keys(part).every((key) => key === 'text' || key === 'thought')
    ) {
      previous.text += part.text;
      continue;
    }
    out.push({ ...part });
  }
  return out;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

function errorTypeName(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return String(status);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'Error';
}
