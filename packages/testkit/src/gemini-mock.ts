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
 * is recorded with its parsed body and timings.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A response or stream chunk as JSON (`{candidates, usageMetadata, …}`); kept loose on purpose. */
export type GeminiWireResponse = Record<string, unknown>;

interface Pacing {
  /** Wait before sending the status line (slow time-to-first-byte). */
  initialDelayMs?: number;
  /** Wait between two chunks. */
  delayMs?: number;
  /** Cut the whole event stream into pieces of this many bytes (splitting events, `\r\n` and
   * multi-byte characters) written `fragmentDelayMs` apart (default 2). `delayMs` is then unused. */
  fragmentBytes?: number;
  fragmentDelayMs?: number;
}

/** An HTTP error with a Google-style JSON body; `retryAfter` sets the header (seconds or date). */
export interface GeminiStatusFault {
  fault: 'status';
  status: number;
  message?: string;
  /** Google status string (`RESOURCE_EXHAUSTED`, …); derived from `status` when absent. */
  googleStatus?: string;
  retryAfter?: number | string;
  details?: unknown[];
  /** Replaces the whole body (e.g. an HTML proxy page). */
  rawBody?: string;
}

type Chunks = { chunks?: GeminiWireResponse[] } & Pacing;

/**
 * `chunks` answers streamGenerateContent, `response` generateContent, `countTokens` countTokens.
 * Faults fit any endpoint: `drop` sends the chunks (half a body when unary) then destroys the
 * socket; `malformed` sends the chunks then one non-JSON event (body); `empty` has no chunks
 * (an empty body); `slow` waits `delayMs` between chunks (before a unary `response`).
 */
export type GeminiMockStep =
  | ({ chunks: GeminiWireResponse[] } & Pacing)
  | { response: GeminiWireResponse; initialDelayMs?: number }
  | { countTokens: { totalTokens: number; cachedContentTokenCount?: number } }
  | GeminiStatusFault
  | ({ fault: 'drop' } & Chunks)
  | ({ fault: 'malformed'; raw?: string } & Chunks)
  | { fault: 'empty' }
  | ({ fault: 'slow'; response?: GeminiWireResponse; delayMs: number } & Chunks);

/** A step, or a function choosing one from the request (for replies that depend on it). */
export type GeminiMockScriptEntry = GeminiMockStep | ((request: GeminiMockRequest) => GeminiMockStep);

export type GeminiMockOutcome = 'pending' | 'completed' | 'dropped' | 'client-closed' | 'script-error';

export interface GeminiMockRequest {
  method: string;
  /** Path and query as received, e.g. `/v1beta/models/m:streamGenerateContent?alt=sse`. */
  path: string;
  apiVersion?: string;
  /** Model id from the path, without the `models/` prefix. */
  model?: string;
  /** `streamGenerateContent`, `generateContent`, `countTokens`, … */
  action?: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (the raw text when it is not JSON). */
  body: unknown;
  /** `performance.now()` when the request was complete; comparable with in-process timestamps. */
  receivedAt: number;
  /** `Date.now()` at the same moment. */
  receivedAtEpochMs: number;
  /** Index of the script step that answered (undefined when none did). */
  step?: number;
  /** `performance.now()` after each stream chunk was handed to the socket. */
  chunkSentAt: number[];
  outcome: GeminiMockOutcome;
  /** Why the mock could not answer from the script. */
  error?: string;
  /** Resolves when the exchange is over (non-enumerable, so it does not disturb `toEqual`). */
  readonly settled: Promise<GeminiMockOutcome>;
}

export interface GeminiMockOptions {
  script?: GeminiMockScriptEntry[];
  /** When set, requests must carry this key (`x-goog-api-key` header or `?key=`), as the real API. */
  apiKey?: string;
  /** Answers countTokens without using script steps. */
  countTokens?: (request: GeminiMockRequest) => { totalTokens: number; cachedContentTokenCount?: number };
}

export interface GeminiMock {
  /** Base URL to give a client, e.g. `http://127.0.0.1:40123` (no trailing slash, no version). */
  readonly url: string;
  readonly requests: GeminiMockRequest[];
  /** Replaces the rest of the script. */
  setScript(script: GeminiMockScriptEntry[]): void;
  /** Appends steps to the script. */
  push(...steps: GeminiMockScriptEntry[]): void;
  /** Steps not used yet. */
  readonly remaining: number;
  /** Stops listening and destroys open sockets, mid-stream ones included. */
  close(): Promise<void>;
}

const PATH_RE = /^\/(v1|v1beta|v1alpha)\/(?:models|tunedModels)\/([^/:]+):([A-Za-z]+)$/;

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

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function googleError(code: number, message: string, googleStatus?: string, details?: unknown[]): string {
  const status = googleStatus ?? GOOGLE_STATUS[code] ?? 'UNKNOWN';
  return JSON.stringify({ error: { code, message, status, ...(details ? { details } : {}) } }, null, 2);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const buffers: Buffer[] = [];
  for await (const buffer of req) buffers.push(buffer as Buffer);
  const text = Buffer.concat(buffers).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startGeminiMock(options: GeminiMockOptions = {}): Promise<GeminiMock> {
  let script: GeminiMockScriptEntry[] = [...(options.script ?? [])];
  let used = 0;
  const requests: GeminiMockRequest[] = [];
  const sockets = new Set<Socket>();

  /**
   * Writes the events, `delayMs` apart, or cut into `fragmentBytes` pieces; stamps each chunk when
   * its last byte leaves. False when the client went away meanwhile.
   */
  async function writeEvents(res: ServerResponse, rec: GeminiMockRequest, events: string[], pacing: Pacing) {
    const all = Buffer.from(events.join(''), 'utf8');
    const ends: number[] = [];
    for (const event of events) ends.push((ends.at(-1) ?? 0) + Buffer.byteLength(event));
    const size = pacing.fragmentBytes ?? 0;
    const cuts =
      size > 0
        ? Array.from({ length: Math.ceil(all.length / size) }, (_, i) => Math.min(all.length, (i + 1) * size))
        : ends;
    let start = 0;
    for (const [index, cut] of cuts.entries()) {
      if (index > 0) await sleep(size > 0 ? (pacing.fragmentDelayMs ?? 2) : (pacing.delayMs ?? 0));
      if (res.destroyed) return false;
      res.write(all.subarray(start, cut));
      start = cut;
      while (rec.chunkSentAt.length < ends.length && (ends[rec.chunkSentAt.length] ?? 0) <= cut) {
        rec.chunkSentAt.push(performance.now());
      }
    }
    return !res.destroyed;
  }

  /** Cuts the connection without finishing the HTTP message, once the written bytes have left. */
  function drop(res: ServerResponse, record: GeminiMockRequest): void {
    record.outcome = 'dropped';
    const socket = res.socket;
    socket?.write('', () => socket.destroy());
  }

  function reply(res: ServerResponse, record: GeminiMockRequest, status: number, body: string, headers = {}) {
    if (record.outcome === 'pending') record.outcome = 'completed';
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(body);
  }

  function fail(res: ServerResponse, record: GeminiMockRequest, message: string, status = 500): undefined {
    record.outcome = 'script-error';
    record.error = message;
    reply(res, record, status, googleError(status, message));
    return undefined;
  }

  /** The step for this request, or undefined after answering with a script error. */
  function nextStep(res: ServerResponse, record: GeminiMockRequest): GeminiMockStep | undefined {
    const label = `${record.method} ${record.path}`;
    const entry = script[used];
    const exhausted = `gemini-mock: script exhausted after ${used} step(s); no response for ${label}`;
    if (!entry) return fail(res, record, exhausted);
    const step = typeof entry === 'function' ? entry(record) : entry;
    const kind =
      'fault' in step ? 'fault' : 'chunks' in step ? 'stream' : 'response' in step ? 'unary' : 'count';
    const expected =
      { streamGenerateContent: 'stream', countTokens: 'count' }[record.action ?? ''] ?? 'unary';
    if (kind !== 'fault' && kind !== expected) {
      return fail(res, record, `gemini-mock: step ${used} is a ${kind} step, but got ${label}`);
    }
    record.step = used++;
    return step;
  }

  async function answer(res: ServerResponse, record: GeminiMockRequest): Promise<void> {
    const match = PATH_RE.exec(record.path.split('?')[0] ?? '');
    if (record.method !== 'POST' || !match) {
      return fail(res, record, `gemini-mock: no such endpoint: ${record.method} ${record.path}`, 404);
    }
    [, record.apiVersion, record.model, record.action] = match;
    record.model = decodeURIComponent(record.model ?? '');
    if (options.apiKey !== undefined) {
      const key = record.headers['x-goog-api-key'] ?? record.query.key;
      if (key !== options.apiKey) {
        const message = key
          ? 'API key not valid. Please pass a valid API key.'
          : "Method doesn't allow unregistered callers.";
        return reply(res, record, key ? 400 : 403, googleError(key ? 400 : 403, message));
      }
    }
    if (record.action === 'countTokens' && options.countTokens) {
      return reply(res, record, 200, JSON.stringify(options.countTokens(record)));
    }
    const step = nextStep(res, record);
    if (!step) return;
    await sleep(('initialDelayMs' in step && step.initialDelayMs) || 0);
    if (res.destroyed) return;
    const fault = 'fault' in step ? step.fault : undefined;

    if (fault === 'status') {
      const { status, retryAfter, message, googleStatus, details, rawBody } = step as GeminiStatusFault;
      const text = message ?? DEFAULT_MESSAGES[status] ?? `Mock error ${status}`;
      const headers = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
      return reply(res, record, status, rawBody ?? googleError(status, text, googleStatus, details), headers);
    }
    const raw = 'raw' in step ? step.raw : undefined;
    if (record.action !== 'streamGenerateContent') {
      if (fault === 'slow') await sleep((step as Pacing).delayMs ?? 0);
      if (res.destroyed) return;
      if (fault === 'drop') {
        res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'content-length': '4096' });
        res.write('{"candidates": [');
        return drop(res, record);
      }
      const payload = 'response' in step ? step.response : 'countTokens' in step ? step.countTokens : {};
      const body =
        fault === 'malformed' ? (raw ?? DEFAULT_MALFORMED) : fault === 'empty' ? '' : JSON.stringify(payload);
      return reply(res, record, 200, body);
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-disposition': 'attachment' });
    res.flushHeaders();
    const events = fault === 'empty' ? [] : (('chunks' in step && step.chunks) || []).map(sseEvent);
    if (fault === 'malformed') events.push(`data: ${raw ?? DEFAULT_MALFORMED}\r\n\r\n`);
    if (!(await writeEvents(res, record, events, step as Pacing))) return;
    if (fault === 'drop') return drop(res, record);
    record.outcome = 'completed';
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mock');
    const record = {
      method: req.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: undefined,
      receivedAt: 0,
      receivedAtEpochMs: 0,
      chunkSentAt: [],
      outcome: 'pending',
    } as unknown as GeminiMockRequest;
    let settle: (outcome: GeminiMockOutcome) => void = () => {};
    const settled = new Promise<GeminiMockOutcome>((resolve) => {
      settle = resolve;
    });
    res.on('close', () => {
      if (record.outcome === 'pending') record.outcome = res.writableFinished ? 'completed' : 'client-closed';
      settle(record.outcome);
    });
    Object.defineProperty(record, 'settled', { value: settled, enumerable: false });
    readBody(req)
      .then((body) => {
        record.body = body;
        record.receivedAt = performance.now();
        record.receivedAtEpochMs = Date.now();
        requests.push(record);
        return answer(res, record);
      })
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else fail(res, record, `gemini-mock: internal error: ${(error as Error).message}`);
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setScript(next) {
      script = [...next];
      used = 0;
    },
    push(...steps) {
      script.push(...steps);
    },
    get remaining() {
      return script.length - used;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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
