import { isMasked } from '../context/masking';
import { estimatePartTokens } from '../context/tokens';
import type { ContentGenerator } from '../contracts/content-generator';
import { errorTypeName, InvalidStreamError, type InvalidStreamType, isAbortError } from '../contracts/errors';
import type {
  Content,
  FinishReason,
  FunctionDeclaration,
  GenerateRequest,
  GenerateResponse,
  GenerationConfig,
  Part,
  UsageMetadata,
} from '../contracts/messages';
import type { ApiCallObserver } from '../contracts/observers';
import type { HookHalt } from '../hooks/hook-system';
import type { ModelSteps } from '../hooks/model-steps';
import { monotonicMs } from '../utils/clock';
import {
  attemptsFor,
  backoffDelayMs,
  sleep as defaultSleep,
  isRetryableError,
  type RetryPolicy,
} from './retry';

export type ChatStreamEvent =
  | { type: 'chunk'; response: GenerateResponse }
  /** The attempt failed and another starts: consumers drop the attempt's partial output. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  /** Persistent quota or overload errors: the chat now uses the fallback model. */
  | { type: 'model_switched'; from: string; to: string; reason: string }
  /** A model step (BeforeModel, AfterModel hook) halted: the stream ends, no model turn is kept. */
  | { type: 'halted'; halt: HookHalt };

export interface SendOptions {
  signal: AbortSignal;
  /** For observers (telemetry); not sent to the model. */
  promptId?: string;
  systemInstruction?: string;
  tools?: FunctionDeclaration[];
  config?: GenerationConfig;
  /** Run around each request attempt (the model hooks); requests go out as built when absent. */
  steps?: ModelSteps;
}

export interface ChatOptions {
  generator: ContentGenerator;
  model: string;
  retry: RetryPolicy;
  observer?: ApiCallObserver;
  history?: Content[];
  /** Model to switch to when quota or capacity errors persist after the retries (`model.fallback`). */
  fallbackModel?: string;
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
/** The next step after a failed request (Chat.retryPlan). */
type RetryPlan =
  | { kind: 'give_up' }
  | { kind: 'fall_back' }
  | { kind: 'reopen'; delayMs: number }
  | { kind: 'start_over'; delayMs: number };

export class Chat {
  private history: Content[];
  /** Bumped by every `setHistory`, so observers can tell a rewrite from appended turns. */
  private rewriteCount = 0;
  private toolOutputTokenCount: number | undefined;
  /**
   * Whether the history holds model turns without parts (only a given or rewritten history can):
   * without them the curated history is a plain copy, not a filter run per request.
   */
  private hasEmptyModelTurns = false;
  private model: string;
  /** `promptTokenCount` of the last response: how much of the window the history uses. */
  lastPromptTokens: number | undefined;
  private readonly generator: ContentGenerator;
  private readonly retry: RetryPolicy;
  private readonly observer: ApiCallObserver | undefined;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly fallbackModel: string | undefined;

  constructor(options: ChatOptions) {
    this.fallbackModel = options.fallbackModel;
    this.generator = options.generator;
    this.model = options.model;
    this.retry = options.retry;
    this.observer = options.observer;
    this.history = options.history ? structuredClone(options.history) : [];
    this.hasEmptyModelTurns = this.history.some(isEmptyModelTurn);
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
    if (!this.hasEmptyModelTurns) return this.history.slice();
    return this.history.filter((content) => !isEmptyModelTurn(content));
  }

  setHistory(history: Content[]): void {
    this.replaceHistory(structuredClone(history));
  }

  /**
   * Takes a history built from `liveHistory()` as it is, without a copy: its unchanged entries are
   * the chat's own objects and only the changed ones are new (masking builds it so), which lets a
   * rewrite cost what it changed and observers tell the changed entries by identity.
   */
  replaceHistory(history: Content[]): void {
    this.history = history;
    this.hasEmptyModelTurns = history.some(isEmptyModelTurn);
    this.rewriteCount += 1;
    this.toolOutputTokenCount = undefined;
  }

  /**
   * Estimated tokens of the unmasked tool results in the history, kept as turns are added (recounted only
   * after a rewrite), so the check "is there anything worth masking?" costs nothing per turn.
   */
  toolOutputTokens(): number {
    this.toolOutputTokenCount ??= this.history.reduce(
      (sum, content) => sum + toolResultTokens(content.parts),
      0,
    );
    return this.toolOutputTokenCount;
  }

  /** How many times the history was replaced (compression, masking, clearing, checkpoints). */
  get rewrites(): number {
    return this.rewriteCount;
  }

  /**
   * The history itself, not a copy, for observers that only read it between turns (the session
   * recorder): copying a long history at every turn is what they must avoid.
   */
  liveHistory(): readonly Content[] {
    return this.history;
  }

  /** Adds a user turn without sending it (e.g. the responses of cancelled tool calls). */
  addUserContent(parts: Part[]): void {
    if (this.toolOutputTokenCount !== undefined) this.toolOutputTokenCount += toolResultTokens(parts);
    const last = this.history.at(-1);
    if (last?.role === 'user') {
      last.parts.push(...structuredClone(parts));
    } else {
      this.history.push({ role: 'user', parts: structuredClone(parts) });
    }
  }

  /**
   * Takes back the last `count` parts of the final user turn (a prompt the model never answered),
   * dropping the turn if nothing is left. Counts as a rewrite: the history got shorter.
   */
  withdrawUserParts(count: number): void {
    const last = this.history.at(-1);
    if (count <= 0 || last?.role !== 'user') return;
    last.parts.splice(Math.max(0, last.parts.length - count));
    if (last.parts.length === 0) this.history.pop();
    this.rewriteCount += 1;
    this.toolOutputTokenCount = undefined;
  }

  /**
   * Sends `parts` and streams the answer; the model turn joins the history once its stream ended
   * valid. Each pass of the loop is one request. A failure before the first chunk opens it again
   * (backoff, honouring Retry-After; past the retries, the fallback model); a stream that broke
   * mid-way or ended invalid starts over, with a `retry` event so front ends drop the partial
   * output. The model steps run around every request; a halt ends the stream with `halted`.
   */
  async *sendMessageStream(parts: Part[], options: SendOptions): AsyncGenerator<ChatStreamEvent> {
    const { signal, steps } = options;
    const isFunctionResponse = parts.length > 0 && parts.every((part) => part.functionResponse);
    this.addUserContent(parts);
    let systemInstruction = options.systemInstruction;
    let opening = 1;
    let restart = 1;
    for (;;) {
      const request = this.requestFor(systemInstruction, options);
      const step = steps ? await steps.beforeRequest(request, signal) : undefined;
      if (step && step.action !== 'send' && step.action !== 'respond') {
        yield { type: 'halted', halt: step };
        return;
      }
      const collected: GenerateResponse[] = [];
      /** Some chunk came from the provider: a failure now is no longer one of opening. */
      let received = false;
      let failure: unknown;
      let invalid = false;
      if (step?.action === 'respond') {
        collected.push(step.response);
        yield { type: 'chunk', response: step.response };
      } else {
        const actual = step?.request ?? request;
        const started = monotonicMs();
        let usage: UsageMetadata | undefined;
        try {
          for await (const fromProvider of this.generator.generateContentStream(actual, signal)) {
            received = true;
            const chunkStep = steps?.afterChunk
              ? await steps.afterChunk(actual, fromProvider, signal)
              : undefined;
            if (chunkStep && chunkStep.action !== 'continue') {
              yield { type: 'halted', halt: chunkStep };
              return;
            }
            const chunk = chunkStep?.chunk ?? fromProvider;
            if (chunk.usageMetadata) usage = chunk.usageMetadata;
            collected.push(chunk);
            yield { type: 'chunk', response: chunk };
          }
          this.answered(request.model, options.promptId, started, usage);
        } catch (error) {
          if (!isAbortError(error)) this.failed(request.model, options.promptId, started, error);
          failure = error;
        }
      }
      if (failure === undefined) {
        const problem = classifyStream(collected, { isFunctionResponse });
        if (!problem) {
          // A valid empty answer (after tool results the model may have nothing to add) adds no
          // turn: the next user turn then merges with the last one and roles keep alternating.
          const answer = consolidateParts(collectParts(collected));
          if (answer.length > 0) this.history.push({ role: 'model', parts: answer });
          return;
        }
        failure = new InvalidStreamError(problem);
        invalid = true;
      }
      if (isAbortError(failure) || signal.aborted) throw failure;
      const plan = this.retryPlan(failure, {
        model: request.model,
        opened: received || invalid,
        hadChunks: collected.length > 0,
        opening,
        restart,
      });
      switch (plan.kind) {
        case 'give_up':
          throw failure;
        case 'fall_back': {
          const from = request.model;
          this.model = this.fallbackModel!;
          opening = 1;
          yield { type: 'model_switched', from, to: this.model, reason: describeError(failure) };
          continue;
        }
        case 'reopen':
          opening += 1;
          yield { type: 'retry', attempt: opening, delayMs: plan.delayMs, reason: describeError(failure) };
          await this.sleep(plan.delayMs, signal);
          continue;
        case 'start_over': {
          restart += 1;
          opening = 1;
          yield { type: 'retry', attempt: restart, delayMs: plan.delayMs, reason: describeError(failure) };
          await this.sleep(plan.delayMs, signal);
          const nudge = failure instanceof InvalidStreamError ? RETRY_NUDGES[failure.type] : undefined;
          if (nudge) systemInstruction = `${options.systemInstruction ?? ''}${nudge}`;
        }
      }
    }
  }

  /**
   * What a failed request leads to. One that never opened (no chunk came) is opened again after a
   * backoff, and once its retries are spent it goes to the fallback model if there is one. Only an
   * invalid stream, or one that broke mid-way, starts over (with its own count and delay); any
   * other failure is given up and thrown.
   */
  private retryPlan(
    failure: unknown,
    attempt: { model: string; opened: boolean; hadChunks: boolean; opening: number; restart: number },
  ): RetryPlan {
    if (!attempt.opened) {
      const exhausted =
        !isRetryableError(failure) || attempt.opening >= attemptsFor(this.retry.maxAttempts, failure);
      if (!exhausted)
        return { kind: 'reopen', delayMs: backoffDelayMs(this.retry, attempt.opening, failure) };
      return this.canFallBack(attempt.model, failure) ? { kind: 'fall_back' } : { kind: 'give_up' };
    }
    const startsOver =
      failure instanceof InvalidStreamError || (attempt.hadChunks && isRetryableError(failure));
    if (!startsOver || attempt.restart >= attemptsFor(this.retry.streamMaxAttempts, failure))
      return { kind: 'give_up' };
    return { kind: 'start_over', delayMs: this.retry.streamInitialDelayMs * 2 ** (attempt.restart - 1) };
  }

  private requestFor(systemInstruction: string | undefined, options: SendOptions): GenerateRequest {
    return {
      model: this.model,
      contents: this.getCuratedHistory(),
      ...(systemInstruction !== undefined ? { systemInstruction } : {}),
      ...(options.tools && options.tools.length > 0 ? { tools: options.tools } : {}),
      ...(options.config ? { config: options.config } : {}),
    };
  }

  /** A stream that ended: the window it used, and the call for observers (telemetry, stats). */
  private answered(
    model: string,
    promptId: string | undefined,
    started: number,
    usage: UsageMetadata | undefined,
  ) {
    if (usage?.promptTokenCount !== undefined) this.lastPromptTokens = usage.promptTokenCount;
    this.observer?.onApiResponse({
      ...(promptId ? { promptId } : {}),
      model,
      durationMs: monotonicMs() - started,
      usage,
    });
  }

  private failed(model: string, promptId: string | undefined, started: number, error: unknown): void {
    this.observer?.onApiError({
      ...(promptId ? { promptId } : {}),
      model,
      durationMs: monotonicMs() - started,
      errorType: errorTypeName(error),
    });
  }

  private canFallBack(model: string, error: unknown): boolean {
    return this.fallbackModel !== undefined && this.fallbackModel !== model && isCapacityError(error);
  }
}

/** 429, 503 or an "overloaded"/quota message: the kinds of failure another model may not have. */
function isCapacityError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 429 || status === 503) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /overloaded|quota|resource.?exhausted|capacity/i.test(message);
}

const ZERO_WIDTH = /[\u200B-\u200D\uFEFF]/g;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/** Why a finished stream is unusable (no finish reason, empty, thoughts only, blocked…), or undefined when it is fine. */
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
  // A stream with nothing in it at all is broken, whatever the request was.
  if (!finishReason && parts.length === 0) return 'NO_FINISH_REASON';
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

function isEmptyModelTurn(content: Content): boolean {
  return content.role !== 'user' && content.parts.length === 0;
}

function toolResultTokens(parts: readonly Part[]): number {
  let total = 0;
  // Outputs already masked cannot be masked again: they do not count towards the next masking.
  for (const part of parts) if (part.functionResponse && !isMasked(part)) total += estimatePartTokens(part);
  return total;
}

export { errorTypeName } from '../contracts/errors';
export type { ApiCallObserver } from '../contracts/observers';
