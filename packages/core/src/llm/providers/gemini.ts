/**
 * The lean Gemini REST client: kodo's default way to talk to the Gemini API.
 *
 * Why not the official SDK: `@google/genai` costs ~100 ms to import, and global `fetch` makes Node
 * load undici lazily on first use (~25 ms), both on the path to the first request. This client
 * speaks the same REST protocol with `node:http`/`node:https`, loaded only when a request is made.
 * The wire format already matches kodo's message model (types.ts), so responses pass through.
 * `gemini-sdk.ts` is the same contract on top of the SDK (`KODO_GEMINI_TRANSPORT=sdk`).
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { ContentGenerator } from '../content-generator';
import { ApiError, abortError, isAbortError } from '../errors';
import { SseDecoder } from '../sse';
import type { CountTokensResponse, GenerateRequest, GenerateResponse, GenerationConfig } from '../types';
import {
  apiErrorFromHttp,
  apiErrorFromStreamChunk,
  malformedChunkError,
  networkApiError,
} from './gemini-errors';

export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
export const DEFAULT_GEMINI_API_VERSION = 'v1beta';

export interface GeminiClientOptions {
  apiKey: string;
  /** Scheme, host and optional path prefix; default `https://generativelanguage.googleapis.com`. */
  baseUrl?: string;
  apiVersion?: string;
  /** Extra request headers (e.g. for a proxy). */
  headers?: Record<string, string>;
}

type RequestFn = (url: URL, options: RequestOptions) => ClientRequest;

const requestFns = new Map<string, Promise<RequestFn>>();

/** `node:https` pulls in TLS (~10 ms): load it on the first request, not at import. */
function requestFnFor(protocol: string): Promise<RequestFn> {
  let fn = requestFns.get(protocol);
  if (!fn) {
    if (protocol === 'https:') fn = import('node:https').then((m) => m.request as RequestFn);
    else if (protocol === 'http:') fn = import('node:http').then((m) => m.request as RequestFn);
    else return Promise.reject(new Error(`Unsupported protocol in Gemini base URL: ${protocol}`));
    requestFns.set(protocol, fn);
  }
  return fn;
}

/** `gemini-x` → `models/gemini-x`; `models/…` and `tunedModels/…` are already resource names. */
export function modelResourceName(model: string): string {
  if (!model || model.includes('..') || /[?#&]/.test(model)) throw new Error(`Invalid model name: ${model}`);
  return model.startsWith('models/') || model.startsWith('tunedModels/') ? model : `models/${model}`;
}

function toGenerationConfig(config: GenerationConfig | undefined): Record<string, unknown> | undefined {
  if (!config) return undefined;
  const out: Record<string, unknown> = {};
  if (config.temperature !== undefined) out.temperature = config.temperature;
  if (config.topP !== undefined) out.topP = config.topP;
  if (config.topK !== undefined) out.topK = config.topK;
  if (config.maxOutputTokens !== undefined) out.maxOutputTokens = config.maxOutputTokens;
  if (config.includeThoughts !== undefined || config.thinkingBudget !== undefined) {
    const thinking: Record<string, unknown> = {};
    if (config.includeThoughts !== undefined) thinking.includeThoughts = config.includeThoughts;
    if (config.thinkingBudget !== undefined) thinking.thinkingBudget = config.thinkingBudget;
    out.thinkingConfig = thinking;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The REST body of generateContent / streamGenerateContent. `systemInstruction` carries role
 * `user` and tools use `parametersJsonSchema` (a plain JSON Schema, not the OpenAPI subset of
 * `parameters`) — both exactly as `@google/genai` sends them, so the two transports put the same
 * bytes on the wire.
 */
export function toGeminiRequestBody(request: GenerateRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { contents: request.contents };
  if (request.systemInstruction) {
    body.systemInstruction = { role: 'user', parts: [{ text: request.systemInstruction }] };
  }
  if (request.tools && request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map(({ name, description, parametersJsonSchema }) => ({
          name,
          description,
          parametersJsonSchema,
        })),
      },
    ];
  }
  // Server-side tools go as their own entries: `{googleSearch: {}}`, `{urlContext: {}}`.
  if (request.builtinTools && request.builtinTools.length > 0) {
    const builtins = request.builtinTools.map((tool) => ({ [tool]: {} }));
    body.tools = [...((body.tools as unknown[] | undefined) ?? []), ...builtins];
  }
  const generationConfig = toGenerationConfig(request.config);
  if (generationConfig) body.generationConfig = generationConfig;
  return body;
}

/** An open HTTP exchange; `close` is idempotent and tears down whatever is still in flight. */
interface Exchange {
  response: IncomingMessage;
  close(): void;
}

/** Every failure leaves as an AbortError (if the caller aborted) or an ApiError. */
function normalizeError(error: unknown, signal: AbortSignal, during: string): Error {
  if (signal.aborted || isAbortError(error)) return abortError();
  if (error instanceof ApiError) return error;
  return networkApiError(error, during);
}

function parseJson(payload: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch (error) {
    throw malformedChunkError(payload, error);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw malformedChunkError(payload);
  const inBandError = apiErrorFromStreamChunk(value);
  if (inBandError) throw inBandError;
  return value as Record<string, unknown>;
}

async function readText(response: IncomingMessage): Promise<string> {
  const buffers: Buffer[] = [];
  for await (const buffer of response) buffers.push(buffer as Buffer);
  return Buffer.concat(buffers).toString('utf8');
}

export class GeminiContentGenerator implements ContentGenerator {
  readonly provider = 'gemini';
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(options: GeminiClientOptions) {
    const baseUrl = (options.baseUrl || DEFAULT_GEMINI_BASE_URL).replace(/\/+$/, '');
    this.base = `${baseUrl}/${options.apiVersion ?? DEFAULT_GEMINI_API_VERSION}`;
    this.headers = {
      'content-type': 'application/json',
      'user-agent': 'kodo',
      ...options.headers,
      'x-goog-api-key': options.apiKey,
    };
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    const body = toGeminiRequestBody(request);
    const parsed = await this.unary(request.model, 'generateContent', body, signal);
    return parsed as GenerateResponse;
  }

  async countTokens(request: GenerateRequest, signal: AbortSignal): Promise<CountTokensResponse> {
    // The Gemini API (unlike Vertex) rejects systemInstruction/tools here, as the SDK does.
    const parsed = await this.unary(request.model, 'countTokens', { contents: request.contents }, signal);
    const result: CountTokensResponse = { totalTokens: Number(parsed.totalTokens ?? 0) };
    if (typeof parsed.cachedContentTokenCount === 'number') {
      result.cachedContentTokenCount = parsed.cachedContentTokenCount;
    }
    return result;
  }

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    const body = toGeminiRequestBody(request);
    const exchange = await this.open(request.model, 'streamGenerateContent', body, signal, true);
    const decoder = new TextDecoder();
    const sse = new SseDecoder();
    const reader = exchange.response[Symbol.asyncIterator]();
    try {
      while (true) {
        let step: IteratorResult<Buffer>;
        try {
          step = await reader.next();
        } catch (error) {
          throw normalizeError(error, signal, 'while streaming the response');
        }
        let payloads: string[];
        if (step.done) {
          payloads = sse.push(decoder.decode());
          // A last event without its blank line: keep it when it is whole, fail when it is cut.
          const tail = sse.end();
          if (tail !== undefined) payloads.push(tail);
        } else {
          payloads = sse.push(decoder.decode(step.value, { stream: true }));
        }
        for (const payload of payloads) {
          if (signal.aborted) throw abortError();
          yield parseJson(payload) as GenerateResponse;
        }
        if (step.done) return;
      }
    } finally {
      // Also runs when the consumer stops early: the socket must not keep streaming into nothing.
      exchange.close();
    }
  }

  private async unary(
    model: string,
    method: string,
    body: unknown,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const exchange = await this.open(model, method, body, signal, false);
    try {
      let text: string;
      try {
        text = await readText(exchange.response);
      } catch (error) {
        throw normalizeError(error, signal, 'while reading the response');
      }
      if (signal.aborted) throw abortError();
      return parseJson(text);
    } finally {
      exchange.close();
    }
  }

  /**
   * Sends the request and resolves once a 2xx status line and headers are in; any other status is
   * read to the end and thrown as an ApiError. The abort listener stays attached until `close`, so
   * an abort while the body streams destroys the socket at once.
   */
  private async open(
    model: string,
    method: string,
    body: unknown,
    signal: AbortSignal,
    stream: boolean,
  ): Promise<Exchange> {
    if (signal.aborted) throw abortError();
    const url = new URL(`${this.base}/${modelResourceName(model)}:${method}${stream ? '?alt=sse' : ''}`);
    const request = await requestFnFor(url.protocol);
    if (signal.aborted) throw abortError();
    const payload = Buffer.from(JSON.stringify(body), 'utf8');

    const exchange = await new Promise<Exchange>((resolve, reject) => {
      let response: IncomingMessage | undefined;
      const req = request(url, {
        method: 'POST',
        headers: { ...this.headers, 'content-length': String(payload.length) },
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
        // After the response arrived, the reader sees the failure; this only settles the open.
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
      const text = await readText(exchange.response).catch((error) => {
        throw normalizeError(error, signal, 'while reading an error response');
      });
      const retryAfter = exchange.response.headers['retry-after'];
      throw apiErrorFromHttp(status, exchange.response.statusMessage, text, retryAfter);
    } finally {
      exchange.close();
    }
  }
}
