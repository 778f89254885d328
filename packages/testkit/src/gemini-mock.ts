/**
 * A scripted stand-in for the Gemini REST API on 127.0.0.1, speaking the real wire protocol so
 * that any client (kodo's lean client, `@google/genai`, curl) can be tested against it:
 *
 * - `POST /{v1beta|v1|v1alpha}/models/{model}:streamGenerateContent?alt=sse` → `text/event-stream`,
 *   one `data: <json>\r\n\r\n` event per chunk (the framing the real API uses);
 * - `POST …:generateContent` → one JSON response; `POST …:countTokens` → `{totalTokens}`.
 *
 * Each request takes the next step of the script, whatever its method (like strict
 * `--fake-responses`). A step is a response or a fault (drop, HTTP status, malformed chunk, empty
 * stream, slow stream), so retry and error paths can be driven over real sockets. Every request
 * is recorded with its parsed body and timings. The script, faults and log are those of every
 * mock (scripted-server.ts); this file supplies the Gemini protocol.
 */
import {
  type MockOutcome,
  type RecordedRequest,
  type ScriptEntry,
  type ScriptedServer,
  type ScriptStep,
  type StatusFaultBase,
  type StepKind,
  startScriptedServer,
  type WireObject,
} from './scripted-server';

/** A response or stream chunk as JSON (`{candidates, usageMetadata, …}`); kept loose on purpose. */
export type GeminiWireResponse = WireObject;

/** An HTTP error with a Google-style JSON body. */
export interface GeminiStatusFault extends StatusFaultBase {
  /** Google status string (`RESOURCE_EXHAUSTED`, …); derived from `status` when absent. */
  googleStatus?: string;
  details?: unknown[];
}

export interface GeminiTokenCount {
  totalTokens: number;
  cachedContentTokenCount?: number;
}

/**
 * `chunks` answers streamGenerateContent, `response` generateContent, `countTokens` countTokens;
 * the faults are those of every mock (see scripted-server.ts).
 */
export type GeminiMockStep = ScriptStep<GeminiStatusFault, { countTokens: GeminiTokenCount }>;

/** A step, or a function choosing one from the request (for replies that depend on it). */
export type GeminiMockScriptEntry = ScriptEntry<GeminiMockStep, GeminiMockRequest>;

export type GeminiMockOutcome = MockOutcome;

export interface GeminiMockRequest extends RecordedRequest {
  apiVersion?: string;
  /** Model id from the path, without the `models/` prefix. */
  model?: string;
  /** `streamGenerateContent`, `generateContent`, `countTokens`, … */
  action?: string;
}

export interface GeminiMockOptions {
  script?: GeminiMockScriptEntry[];
  /** When set, requests must carry this key (`x-goog-api-key` header or `?key=`), as the real API. */
  apiKey?: string;
  /** Answers countTokens without using script steps. */
  countTokens?: (request: GeminiMockRequest) => GeminiTokenCount;
}

/** `url` is the server's address alone, e.g. `http://127.0.0.1:40123` (no version). */
export type GeminiMock = ScriptedServer<GeminiMockStep, GeminiMockRequest>;

const PATH_RE = /^\/(v1|v1beta|v1alpha)\/(?:models|tunedModels)\/([^/:]+):([A-Za-z]+)$/;

/** The step kind of each action; the others are unary. */
const ACTION_KINDS: Record<string, StepKind> = { streamGenerateContent: 'stream', countTokens: 'count' };

const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const DEFAULT_MESSAGES: Record<number, string> = {
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
};

const DEFAULT_MALFORMED = '{"candidates": [{"content": {"role": "model", "parts": [{"text": "cut';

/** The SSE framing of the real API: one single-line `data:` field per event, CRLF CRLF after. */
export function sseEvent(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}

function googleError(code: number, message: string, googleStatus?: string, details?: unknown[]): string {
  const status = googleStatus ?? GOOGLE_STATUS[code] ?? 'UNKNOWN';
  return JSON.stringify({ error: { code, message, status, ...(details ? { details } : {}) } }, null, 2);
}

export function startGeminiMock(options: GeminiMockOptions = {}): Promise<GeminiMock> {
  return startScriptedServer<GeminiMockRequest, GeminiStatusFault, GeminiMockStep>(
    {
      name: 'gemini-mock',
      urlSuffix: '',
      route(record, pathname) {
        const match = PATH_RE.exec(pathname);
        if (!match) return undefined;
        [, record.apiVersion, record.model, record.action] = match;
        record.model = decodeURIComponent(record.model ?? '');
        return ACTION_KINDS[record.action ?? ''] ?? 'unary';
      },
      refuse(record) {
        if (options.apiKey === undefined) return undefined;
        const key = record.headers['x-goog-api-key'] ?? record.query.key;
        if (key === options.apiKey) return undefined;
        const message = key
          ? 'API key not valid. Please pass a valid API key.'
          : "Method doesn't allow unregistered callers.";
        return { status: key ? 400 : 403, body: googleError(key ? 400 : 403, message) };
      },
      answerDirectly: (record) =>
        record.action === 'countTokens' && options.countTokens
          ? { status: 200, body: JSON.stringify(options.countTokens(record)) }
          : undefined,
      errorBody: (fault, message) => googleError(fault.status, message, fault.googleStatus, fault.details),
      defaultMessages: DEFAULT_MESSAGES,
      jsonType: 'application/json; charset=UTF-8',
      streamHeaders: { 'content-type': 'text/event-stream', 'content-disposition': 'attachment' },
      frame: sseEvent,
      malformedEvent: (raw) => `data: ${raw ?? DEFAULT_MALFORMED}\r\n\r\n`,
      malformedBody: DEFAULT_MALFORMED,
      cutBody: '{"candidates": [',
    },
    options.script,
  );
}

export interface GeminiReplyOptions {
  /** On the last chunk; default `STOP`. */
  finishReason?: string;
  /** On the last chunk. */
  usageMetadata?: Record<string, unknown>;
  /** On every chunk, as the real API does. */
  modelVersion?: string;
  responseId?: string;
}

/** One chunk in the API's shape; `last` adds the finish reason and usage. */
export function geminiChunk(
  parts: Record<string, unknown>[],
  options: GeminiReplyOptions & { last?: boolean } = {},
): GeminiWireResponse {
  const candidate: Record<string, unknown> = { content: { role: 'model', parts }, index: 0 };
  const chunk: GeminiWireResponse = { candidates: [candidate] };
  if (options.last !== false) {
    candidate.finishReason = options.finishReason ?? 'STOP';
    if (options.usageMetadata) chunk.usageMetadata = options.usageMetadata;
  }
  if (options.modelVersion) chunk.modelVersion = options.modelVersion;
  if (options.responseId) chunk.responseId = options.responseId;
  return chunk;
}

/** A text answer: one chunk per piece (a single string is one chunk). */
export function geminiTextReply(
  text: string | string[],
  options: GeminiReplyOptions = {},
): GeminiWireResponse[] {
  const pieces = typeof text === 'string' ? [text] : text;
  return pieces.map((piece, index) =>
    geminiChunk([{ text: piece }], { ...options, last: index === pieces.length - 1 }),
  );
}

/** A single function call in one chunk. */
export function geminiFunctionCallReply(
  name: string,
  args: Record<string, unknown>,
  options: GeminiReplyOptions = {},
): GeminiWireResponse[] {
  return geminiFunctionCallsReply([{ name, args }], options);
}

/** Parallel function calls: several functionCall parts in one chunk. */
export function geminiFunctionCallsReply(
  calls: { name: string; args: Record<string, unknown>; id?: string }[],
  options: GeminiReplyOptions = {},
): GeminiWireResponse[] {
  const parts = calls.map((functionCall) => ({ functionCall }));
  return [geminiChunk(parts, options)];
}
