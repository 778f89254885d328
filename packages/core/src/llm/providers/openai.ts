/**
 * The lean OpenAI Chat Completions client: kodo's default transport for OpenAI and every
 * OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter), chosen by base URL.
 */
import type { ContentGenerator } from '../../contracts/content-generator';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../../contracts/messages';
import { envelopeHttpError } from './error-envelope';
import {
  type JsonPost,
  joinUrl,
  parseJsonPayload,
  postEventStream,
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

  constructor(options: OpenAIClientOptions) {
    this.transportOptions = options.transportOptions ?? {};
    this.provider = options.providerName ?? 'openai';
    this.toolChoice = options.toolChoice;
    this.baseUrl = (options.baseUrl || DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'kodo',
      ...options.headers,
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    };
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
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
    const body = toOpenAIRequestBody(request, {
      stream: true,
      maxTokensField: maxTokensFieldFor(this.baseUrl),
      topK: acceptsTopK(this.baseUrl),
      ...(this.toolChoice ? { toolChoice: this.toolChoice } : {}),
    });
    const converter = new OpenAIStreamConverter();
    for await (const payload of postEventStream({
      ...this.post(body, signal),
      headers: this.streamHeaders(),
    })) {
      if (payload.trim() === '[DONE]') break;
      yield* converter.push(parseJsonPayload(payload));
    }
    yield* converter.end();
  }

  async countTokens(request: GenerateRequest): Promise<CountTokensResponse> {
    return estimateTokens(request);
  }

  private post(body: unknown, signal: AbortSignal): JsonPost {
    return {
      url: joinUrl(this.baseUrl, '/chat/completions'),
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
