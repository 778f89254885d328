/**
 * One GET for web_fetch, with the limits an agent needs: a deadline for the whole exchange
 * (redirects and body included), at most `maxRedirects` hops each checked again before
 * connecting, and a cap on the (decompressed) body so a huge or endless response cannot exhaust
 * memory. `node:http`/`node:https` are loaded on first use, off the startup path; global `fetch`
 * would load undici and cannot take a per-request `lookup`, which the rebinding guard needs.
 */
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { Transform } from 'node:stream';
import { abortError } from '../../contracts/errors';
import { agentFor } from '../../net/proxy-transport';
import { loadBuiltin } from '../../utils/builtin';
import { BlockedHostError } from './guarded-lookup';

export interface FetchPageOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** Bytes of (decompressed) body kept; the rest is not read. */
  maxBytes: number;
  maxRedirects: number;
  /** Resolves host names for the sockets; the guarded one refuses private addresses. */
  lookup: LookupFunction;
  /**
   * Checked for the first URL and every redirect target before connecting. Needed for IP
   * literals, which sockets dial without calling `lookup`.
   */
  isRefused: (url: URL) => boolean;
}

export interface FetchedPage {
  /** Where the content came from, after redirects. */
  url: string;
  status: number;
  /** The `content-type` header, lower-cased ('' when absent). */
  contentType: string;
  body: Buffer;
  /** The body was longer than `maxBytes` and was cut. */
  truncated: boolean;
}

/** A fetch that failed for a reason worth telling the model (status, timeout, redirects). */
export class FetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchError';
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const REQUEST_HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; kodo-web-fetch/1.0)',
  accept: 'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
  'accept-encoding': 'gzip, deflate, br',
};

export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  if (options.signal.aborted) throw abortError();
  // One controller for the whole exchange: the caller's abort or the deadline ends every hop.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = () => controller.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    let current = new URL(url);
    for (let hop = 0; ; hop++) {
      if (options.isRefused(current)) throw new BlockedHostError(current.hostname, current.hostname);
      const response = await send(current, options.lookup, controller.signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        response.destroy();
        if (hop >= options.maxRedirects) {
          throw new FetchError(`Too many redirects (more than ${options.maxRedirects})`);
        }
        current = redirectTarget(location, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        const reason = response.statusMessage ? ` ${response.statusMessage}` : '';
        throw new FetchError(`Request failed with status code ${status}${reason}`);
      }
      const { body, truncated } = await readBody(response, options.maxBytes);
      return {
        url: current.href,
        status,
        contentType: String(response.headers['content-type'] ?? '').toLowerCase(),
        body,
        truncated,
      };
    }
  } catch (error) {
    if (options.signal.aborted) throw abortError();
    if (timedOut) throw new FetchError(`Request timed out after ${options.timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}

function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new FetchError(`Invalid redirect location: ${location}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new FetchError(`Redirect to an unsupported protocol: ${next.protocol}`);
  }
  return next;
}

/**
 * Through a proxy the socket goes to the proxy, so the private-address guard checks the name
 * itself first: a name that resolves to a private address is refused. A name this machine cannot
 * resolve (networks that resolve outside names only at the proxy) is left to the proxy.
 */
function resolvesSafely(hostname: string, lookup: LookupFunction): Promise<void> {
  return new Promise((resolve, reject) => {
    lookup(hostname.replace(/^\[|\]$/g, ''), { all: true }, (error) => {
      if (error instanceof BlockedHostError) reject(error);
      else resolve();
    });
  });
}

async function send(url: URL, lookup: LookupFunction, signal: AbortSignal): Promise<IncomingMessage> {
  const { request } = url.protocol === 'https:' ? loadBuiltin('node:https') : loadBuiltin('node:http');
  const agent = await agentFor(url);
  if (agent) await resolvesSafely(url.hostname, lookup);
  if (signal.aborted) throw abortError();
  const options = agent
    ? { method: 'GET', headers: REQUEST_HEADERS, agent, signal }
    : { method: 'GET', headers: REQUEST_HEADERS, lookup, signal };
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, options, (response) => {
      // Later socket errors surface to the body reader; this keeps an unread one from crashing.
      response.on('error', () => {});
      resolve(response);
    });
    req.on('error', reject);
    req.end();
  });
}

async function readBody(
  response: IncomingMessage,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const decoder = await decoderFor(String(response.headers['content-encoding'] ?? '').toLowerCase());
  const source: AsyncIterable<Buffer> = decoder ? response.pipe(decoder) : response;
  if (decoder) response.on('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of source) {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = chunk.length > room;
        if (truncated) break;
        continue;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    response.destroy();
    decoder?.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/** A decompressor for the response's content-encoding; none for identity or unknown ones. */
async function decoderFor(encoding: string): Promise<Transform | undefined> {
  if (!encoding || encoding === 'identity') return undefined;
  const zlib = loadBuiltin('node:zlib');
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return undefined;
}
