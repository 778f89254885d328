/**
 * The OpenAI ContentGenerator on the official `openai` SDK (`KODO_OPENAI_TRANSPORT=sdk`). It sends
 * the very body the lean client builds (openai-convert.ts) and reads the SDK's parsed chunks with
 * the same converter, so the two transports differ only in how bytes move. Loaded only through
 * the dynamic import in `createSdkOpenAIGenerator`: the SDK and undici cost startup time.
 */
import type OpenAI from 'openai';
import type { ContentGenerator } from '../content-generator';
import { abortError } from '../errors';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../types';
import {
  DEFAULT_OPENAI_BASE_URL,
  estimateTokens,
  maxTokensFieldFor,
  type OpenAIClientOptions,
} from './openai';
import {
  OpenAIStreamConverter,
  openAICompletionToResponse,
  openAIErrorFromBody,
  toOpenAIRequestBody,
} from './openai-convert';
import { type BodyErrorMapper, convertSdkStream, fromSdkError } from './sdk-errors';

const fromBody: BodyErrorMapper = (error, status, retryAfterMs) =>
  openAIErrorFromBody(
    { error },
    { ...(status !== undefined ? { status } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
  );

type CreateParams = Parameters<OpenAI['chat']['completions']['create']>[0];

export class SdkOpenAIContentGenerator implements ContentGenerator {
  readonly provider: string;

  constructor(
    private readonly client: OpenAI,
    private readonly baseUrl: string,
    providerName: string,
  ) {
    this.provider = providerName;
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    if (signal.aborted) throw abortError();
    const body = toOpenAIRequestBody(request, {
      stream: false,
      maxTokensField: maxTokensFieldFor(this.baseUrl),
    });
    try {
      const completion = await this.client.chat.completions.create(body as unknown as CreateParams, {
        signal,
      });
      return openAICompletionToResponse(completion);
    } catch (error) {
      throw fromSdkError(error, signal, 'calling chat completions', fromBody);
    }
  }

  generateContentStream(request: GenerateRequest, signal: AbortSignal): AsyncGenerator<GenerateResponse> {
    const body = toOpenAIRequestBody(request, {
      stream: true,
      maxTokensField: maxTokensFieldFor(this.baseUrl),
    });
    const open = async (linked: AbortSignal) =>
      (await this.client.chat.completions.create(body as unknown as CreateParams, {
        signal: linked,
      })) as unknown as AsyncIterable<unknown>;
    return convertSdkStream(open, signal, new OpenAIStreamConverter(), fromBody);
  }

  async countTokens(request: GenerateRequest): Promise<CountTokensResponse> {
    return estimateTokens(request);
  }
}

export async function createSdkOpenAIGenerator(
  options: OpenAIClientOptions,
): Promise<SdkOpenAIContentGenerator> {
  const { default: OpenAISdk } = await import('openai');
  const baseUrl = (options.baseUrl || DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
  const client = new OpenAISdk({
    // The SDK insists on a key; a local server gets a placeholder and no Authorization header.
    apiKey: options.apiKey || 'none',
    baseURL: baseUrl,
    // kodo's Chat owns retries (one policy for every provider).
    maxRetries: 0,
    defaultHeaders: { ...options.headers, ...(options.apiKey ? {} : { authorization: null }) },
  });
  return new SdkOpenAIContentGenerator(client, baseUrl, options.providerName ?? 'openai');
}
