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
import { ApiError, abortError, isAbortError } from '../errors';
import { SseDecoder } from '../sse';
import { malformedChunkError, networkApiError, parseRetryAfter } from './gemini-errors';

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
}

type RequestFn = (url: URL, options: RequestOptions) => ClientRequest;

/** `node:https` pulls in TLS (~10 ms): load it on the first request, not at import. Node caches
 * dynamic imports, so this costs nothing after the first request. */
async function requestFnFor(protocol: string): Promise<RequestFn> {
  if (protocol === 'https:') return (await import('node:https')).request as RequestFn;
  if (protocol === 'http:') return (await import('node:http')).request as RequestFn;
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

async function readText(response: IncomingMessage): Promise<string> {
  const buffers: Buffer[] = [];
  for await (const buffer of response) buffers.push(buffer as Buffer);
  return Buffer.concat(buffers).toString('utf8');
}

interface Exchange {
  response: IncomingMessage;
  close(): void;
}

/**
 * Sends the request; resolves once a 2xx status line is in, throws the mapped ApiError for any
 * other status. The abort listener stays until `close`, so an abort mid-body destroys the socket.
 */
async function open(post: JsonPost): Promise<Exchange> {
  const { url, signal } = post;
  if (signal.aborted) throw abortError();
  const request = await requestFnFor(url.protocol);
  if (signal.aborted) throw abortError();
  const payload = Buffer.from(JSON.stringify(post.body), 'utf8');

  const exchange = await new Promise<Exchange>((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const req = request(url, {
      method: 'POST',
      headers: { ...post.headers, 'content-length': String(payload.length) },
    });
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
      close();
      reject(normalizeError(error, signal, `calling ${url.origin}`));
    });
    req.on('response', (res) => {
      response = res;
      // The reader reports body errors; this listener only keeps an unread error from crashing.
      res.on('error', () => {});
      resolve({ response: res, close });
    });
    req.end(payload);
  });

  const status = exchange.response.statusCode ?? 0;
  if (status >= 200 && status < 300) return exchange;
  try {
    const body = await readText(exchange.response).catch((error) => {
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

/** POSTs and returns the answer's body as text. */
export async function postText(post: JsonPost): Promise<string> {
  const exchange = await open(post);
  try {
    let text: string;
    try {
      text = await readText(exchange.response);
    } catch (error) {
      throw normalizeError(error, post.signal, 'while reading the response');
    }
    if (post.signal.aborted) throw abortError();
    return text;
  } finally {
    exchange.close();
  }
}

/** POSTs and returns the parsed JSON answer. */
export async function postJson(post: JsonPost): Promise<unknown> {
  return parseJsonPayload(await postText(post));
}

/**
 * POSTs and yields the `data` payloads of the event stream as they arrive. A last event cut
 * short is still yielded (its JSON then fails to parse, which is the error worth reporting).
 * Stopping early closes the connection.
 */
export async function* postEventStream(post: JsonPost): AsyncGenerator<string> {
  const exchange = await open(post);
  const decoder = new TextDecoder();
  const sse = new SseDecoder();
  const reader = exchange.response[Symbol.asyncIterator]();
  try {
    while (true) {
      let step: IteratorResult<Buffer>;
      try {
        step = await reader.next();
      } catch (error) {
        throw normalizeError(error, post.signal, 'while streaming the response');
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
        if (post.signal.aborted) throw abortError();
        yield payload;
      }
      if (step.done) return;
    }
  } finally {
    exchange.close();
  }
}

/** Joins a base URL (trailing slashes dropped) and a path. */
export function joinUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, '')}${path}`);
}
