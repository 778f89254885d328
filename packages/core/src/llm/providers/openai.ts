/**
 * The lean OpenAI client: the Responses API for OpenAI's own models on OpenAI's API, Chat
 * Completions for every OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio,
 * OpenRouter); openai-wire.ts decides per request, and `wireApi` overrides it.
 */
import type { ContentGenerator } from '../../contracts/content-generator';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../../contracts/messages';
import { joinChunks } from './anthropic-stream';
import { envelopeHttpError } from './error-envelope';
import {
  type JsonPost,
  joinUrl,
  openPost,
  parseJsonPayload,
  postJson,
  type TransportOptions,
} from './http-stream';
import {
  type OpenAIBodyOptions,
  OpenAIStreamConverter,
  openAICompletionToResponse,
  openAIErrorFromBody,
  toOpenAIRequestBody,
} from './openai-convert';
import { ResponsesStreamConverter, toResponsesRequestBody } from './openai-responses-convert';
import { type OpenAIWireApi, openAIWireFor } from './openai-wire';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIClientOptions {
  /** Absent for local servers that need none: no Authorization header is sent then. */
  apiKey?: string;
  /** Up to and including the version, e.g. `http://localhost:11434/v1`. */
  baseUrl?: string;
  headers?: Record<string, string>;
  /** Name in logs and stats (`openai`, `ollama`, a profile name). */
  providerName?: string;
  /** Timeouts and the hint for an unreachable endpoint, passed to every request. */
  transportOptions?: TransportOptions;
  /** `required`: the request answering each user message must call a tool. */
  toolChoice?: 'auto' | 'required';
  /** `providers.<name>.wireApi`: the wire API for every model of this provider. */
  wireApi?: OpenAIWireApi;
}

/** The official API takes `max_completion_tokens`; compatible servers mostly know `max_tokens`. */
export function maxTokensFieldFor(baseUrl: string): OpenAIBodyOptions['maxTokensField'] {
  return /^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl) ? 'max_completion_tokens' : 'max_tokens';
}

/** Every server but OpenAI's own API takes `top_k` (openai-convert.ts). */
export function acceptsTopK(baseUrl: string): boolean {
  return maxTokensFieldFor(baseUrl) === 'max_tokens';
}

/** No count endpoint exists; ~4 characters a token is the usual estimate for English and code. */
export function estimateTokens(request: GenerateRequest): CountTokensResponse {
  const chars = JSON.stringify(request.contents).length + (request.systemInstruction?.length ?? 0);
  return { totalTokens: Math.ceil(chars / 4) };
}

const httpError = envelopeHttpError(openAIErrorFromBody);

export class OpenAIContentGenerator implements ContentGenerator {
  readonly provider: string;
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly transportOptions: TransportOptions;
  private readonly toolChoice: OpenAIClientOptions['toolChoice'];
  private readonly wireApi: OpenAIWireApi | undefined;
  private readonly explicitBaseUrl: string | undefined;

  constructor(options: OpenAIClientOptions) {
    this.transportOptions = options.transportOptions ?? {};
    this.provider = options.providerName ?? 'openai';
    this.toolChoice = options.toolChoice;
    this.wireApi = options.wireApi;
    this.explicitBaseUrl = options.baseUrl || undefined;
    this.baseUrl = (options.baseUrl || DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'kodo',
      ...options.headers,
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    };
  }

  /** The wire API a request for this model goes out on. */
  wireFor(model: string): OpenAIWireApi {
    return openAIWireFor(this.explicitBaseUrl, model, this.wireApi);
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    if (this.wireFor(request.model) === 'responses') {
      // Streamed and joined: one code path for the Responses API (as the Anthropic client does).
      const chunks: GenerateResponse[] = [];
      for await (const chunk of this.responsesStream(request, signal)) chunks.push(chunk);
      return joinChunks(chunks);
    }
    const body = toOpenAIRequestBody(request, {
      stream: false,
      maxTokensField: maxTokensFieldFor(this.baseUrl),
      topK: acceptsTopK(this.baseUrl),
      ...(this.toolChoice ? { toolChoice: this.toolChoice } : {}),
    });
    const completion = await postJson(this.post(body, signal));
    return openAICompletionToResponse(completion);
  }

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    if (this.wireFor(request.model) === 'responses') {
      yield* this.responsesStream(request, signal);
      return;
    }
    const body = toOpenAIRequestBody(request, {
      stream: true,
      maxTokensField: maxTokensFieldFor(this.baseUrl),
      topK: acceptsTopK(this.baseUrl),
      ...(this.toolChoice ? { toolChoice: this.toolChoice } : {}),
    });
    const converter = new OpenAIStreamConverter();
    const answer = await openPost({ ...this.post(body, signal), headers: this.streamHeaders() });
    for await (const payload of answer.events()) {
      if (payload.trim() === '[DONE]') break;
      yield* converter.push(parseJsonPayload(payload));
    }
    yield* converter.end();
  }

  async countTokens(request: GenerateRequest): Promise<CountTokensResponse> {
    return estimateTokens(request);
  }

  private async *responsesStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    const body = toResponsesRequestBody(request, { stream: true });
    const converter = new ResponsesStreamConverter();
    const answer = await openPost({
      ...this.post(body, signal, '/responses'),
      headers: this.streamHeaders(),
    });
    for await (const payload of answer.events()) {
      if (payload.trim() === '[DONE]') break;
      yield* converter.push(parseJsonPayload(payload));
    }
    yield* converter.end();
  }

  private post(body: unknown, signal: AbortSignal, path = '/chat/completions'): JsonPost {
    return {
      url: joinUrl(this.baseUrl, path),
      headers: this.headers,
      body,
      signal,
      httpError,
      ...this.transportOptions,
    };
  }

  private streamHeaders(): Record<string, string> {
    return { ...this.headers, accept: 'text/event-stream' };
  }
}
