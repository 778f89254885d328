/**
 * The lean HTTP transport of the Gemini, OpenAI and Anthropic clients: one JSON POST over
 * `node:http`/`node:https` (loaded on the first request, not at import), answered either by an
 * event stream or by one JSON body. The vendors' SDKs and global `fetch` (undici) cost tens of
 * milliseconds before the first request (see gemini.ts); this module imports nothing heavier
 * than the lean clients already do, as it is on `kodo -p`'s path to its first request.
 *
 * Every failure leaves as an AbortError (the caller aborted) or an ApiError: HTTP errors through
 * the provider's own `httpError` mapping, transport failures with a Node-style `code`.
 */
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import { ApiError, abortError, isAbortError } from '../../contracts/errors';
import { agentFor } from '../../net/proxy-transport';
import { loadBuiltin } from '../../utils/builtin';
import { SseDecoder } from '../sse';
import { malformedChunkError, networkApiError, parseRetryAfter } from './gemini-errors';
import {
  connectTimeoutError,
  firstByteTimeoutError,
  idleTimeoutError,
  resolveTimeouts,
  type TransportTimeouts,
  unreachableError,
} from './transport-limits';

/** Maps a non-2xx response to the provider's ApiError. */
export type HttpErrorMapper = (response: {
  status: number;
  statusText: string | undefined;
  body: string;
  headers: IncomingHttpHeaders;
}) => ApiError;

export interface JsonPost {
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  httpError: HttpErrorMapper;
  /** Waiting limits; absent ones take the defaults (transport-limits.ts), 0 turns one off. */
  timeouts?: TransportTimeouts | undefined;
  /** What to do when nothing answers at the URL ("start Ollama or set OLLAMA_BASE_URL"). */
  unreachableHint?: string | undefined;
}

/** The options every lean client passes through to each request. */
export type TransportOptions = Pick<JsonPost, 'timeouts' | 'unreachableHint'>;

type RequestFn = (url: URL, options: RequestOptions) => ClientRequest;

/** `node:https` pulls in TLS (~10 ms): load it on the first request, not at import. Node caches
 * dynamic imports, so this costs nothing after the first request. */
async function requestFnFor(protocol: string): Promise<RequestFn> {
  if (protocol === 'https:') return loadBuiltin('node:https').request as RequestFn;
  if (protocol === 'http:') return loadBuiltin('node:http').request as RequestFn;
  throw new ApiError(`Unsupported protocol in base URL: ${protocol}`);
}

/**
 * The server's requested delay: `retry-after-ms` (OpenAI) wins over `retry-after` (seconds or an
 * HTTP date).
 */
export function retryAfterFromHeaders(
  headers: IncomingHttpHeaders | Headers | undefined,
): number | undefined {
  if (!headers) return undefined;
  const get = (name: string): string | undefined => {
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
    const value = (headers as IncomingHttpHeaders)[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  return parseRetryAfter(get('retry-after'));
}

/** Parses one JSON payload; a broken one is a retryable "incomplete json segment" ApiError. */
export function parseJsonPayload(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch (error) {
    throw malformedChunkError(payload, error);
  }
}

function normalizeError(error: unknown, signal: AbortSignal, during: string): Error {
  if (signal.aborted || isAbortError(error)) return abortError();
  if (error instanceof ApiError) return error;
  return networkApiError(error, during);
}

/**
 * The next piece of the body; a body silent for `idleMs` is destroyed with the idle-timeout
 * error, which the pending read then throws.
 */
async function nextPiece(
  reader: AsyncIterator<Buffer>,
  response: IncomingMessage,
  idle: { ms: number; url: URL },
): Promise<IteratorResult<Buffer>> {
  if (idle.ms <= 0) return reader.next();
  const timer = setTimeout(() => response.destroy(idleTimeoutError(idle.url, idle.ms)), idle.ms);
  try {
    return await reader.next();
  } finally {
    clearTimeout(timer);
  }
}

async function readText(exchange: Exchange): Promise<string> {
  const buffers: Buffer[] = [];
  const reader = exchange.response[Symbol.asyncIterator]();
  for (;;) {
    const step = await nextPiece(reader, exchange.response, exchange.idle);
    if (step.done) break;
    buffers.push(step.value);
  }
  return Buffer.concat(buffers).toString('utf8');
}

interface Exchange {
  response: IncomingMessage;
  idle: { ms: number; url: URL };
  close(): void;
}

/** A 2xx answer whose body is still to be read, once, either way; reading it closes the connection. */
export interface PostAnswer {
  /**
   * The `data` payloads of the event stream as they arrive. A last event cut short is still
   * yielded (its JSON then fails to parse, which is the error worth reporting). Stopping early
   * closes the connection.
   */
  events(): AsyncGenerator<string>;
  /** The whole body as text. */
  text(): Promise<string>;
}

/**
 * Sends the request; resolves once a 2xx status line is in, throws the mapped ApiError for any
 * other status. The abort listener stays until the body is read, so an abort mid-body destroys
 * the socket. The caller reads the answer after this returns (not from inside it), so on the
 * way to the request the provider's client calls this directly: one frame, not two.
 */
export async function openPost(post: JsonPost): Promise<PostAnswer> {
  const { url, signal } = post;
  if (signal.aborted) throw abortError();
  const request = await requestFnFor(url.protocol);
  // Behind HTTPS_PROXY/HTTP_PROXY: the proxy's agent (net/proxy-transport.ts); else Node's own.
  const agent = await agentFor(url);
  if (signal.aborted) throw abortError();
  const payload = Buffer.from(JSON.stringify(post.body), 'utf8');
  const limits = resolveTimeouts(post.timeouts);
  const idle = { ms: limits.idleMs, url };

  const exchange = await new Promise<Exchange>((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const req = request(url, {
      method: 'POST',
      headers: { ...post.headers, 'content-length': String(payload.length) },
      ...(agent ? { agent } : {}),
    });
    // Destroying the request with an ApiError makes it the request's 'error' below.
    const timers: NodeJS.Timeout[] = [];
    const clearTimers = () => {
      for (const timer of timers) clearTimeout(timer);
    };
    if (limits.firstByteMs > 0) {
      timers.push(
        setTimeout(() => req.destroy(firstByteTimeoutError(url, limits.firstByteMs)), limits.firstByteMs),
      );
    }
    if (limits.connectMs > 0) {
      req.once('socket', (socket) => {
        // A kept-alive socket is already connected.
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => req.destroy(connectTimeoutError(url, limits.connectMs)),
          limits.connectMs,
        );
        timers.push(timer);
        socket.once('connect', () => clearTimeout(timer));
      });
    }
    const onAbort = () => {
      const error = abortError();
      response?.destroy(error);
      req.destroy(error);
    };
    const close = () => {
      signal.removeEventListener('abort', onAbort);
      if (!response?.complete) {
        response?.destroy();
        req.destroy();
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      clearTimers();
      close();
      const unreachable = signal.aborted ? undefined : unreachableError(error, url, post.unreachableHint);
      reject(unreachable ?? normalizeError(error, signal, `calling ${url.origin}`));
    });
    req.on('response', (res) => {
      clearTimers();
      response = res;
      // The reader reports body errors; this listener only keeps an unread error from crashing.
      res.on('error', () => {});
      resolve({ response: res, idle, close });
    });
    req.end(payload);
  });

  const status = exchange.response.statusCode ?? 0;
  if (status >= 200 && status < 300) {
    return { events: () => readEvents(exchange, signal), text: () => readWholeText(exchange, signal) };
  }
  try {
    const body = await readText(exchange).catch((error) => {
      throw normalizeError(error, signal, 'while reading an error response');
    });
    throw post.httpError({
      status,
      statusText: exchange.response.statusMessage,
      body,
      headers: exchange.response.headers,
    });
  } finally {
    exchange.close();
  }
}

async function readWholeText(exchange: Exchange, signal: AbortSignal): Promise<string> {
  try {
    let text: string;
    try {
      text = await readText(exchange);
    } catch (error) {
      throw normalizeError(error, signal, 'while reading the response');
    }
    if (signal.aborted) throw abortError();
    return text;
  } finally {
    exchange.close();
  }
}

async function* readEvents(exchange: Exchange, signal: AbortSignal): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const sse = new SseDecoder();
  const reader = exchange.response[Symbol.asyncIterator]();
  try {
    while (true) {
      let step: IteratorResult<Buffer>;
      try {
        step = await nextPiece(reader, exchange.response, exchange.idle);
      } catch (error) {
        throw normalizeError(error, signal, 'while streaming the response');
      }
      let payloads: string[];
      if (step.done) {
        payloads = sse.push(decoder.decode());
        const tail = sse.end();
        if (tail !== undefined) payloads.push(tail);
      } else {
        payloads = sse.push(decoder.decode(step.value, { stream: true }));
      }
      for (const payload of payloads) {
        if (signal.aborted) throw abortError();
        yield payload;
      }
      if (step.done) return;
    }
  } finally {
    exchange.close();
  }
}

/** POSTs and returns the answer's body as text. */
export async function postText(post: JsonPost): Promise<string> {
  return (await openPost(post)).text();
}

/** POSTs and returns the parsed JSON answer. */
export async function postJson(post: JsonPost): Promise<unknown> {
  return parseJsonPayload(await postText(post));
}

/** Joins a base URL (trailing slashes dropped) and a path. */
export function joinUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, '')}${path}`);
}
