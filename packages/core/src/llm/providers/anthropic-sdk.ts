/**
 * The Anthropic ContentGenerator on the official `@anthropic-ai/sdk`
 * (`KODO_ANTHROPIC_TRANSPORT=sdk`): the lean client's request body and event converter
 * (anthropic-convert.ts) with the SDK moving the bytes. Loaded only through the dynamic import in
 * `createSdkAnthropicGenerator`.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentGenerator } from '../content-generator';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../types';
import { type AnthropicClientOptions, DEFAULT_ANTHROPIC_BASE_URL } from './anthropic';
import { anthropicErrorFromBody, toAnthropicRequestBody } from './anthropic-convert';
import { AnthropicStreamConverter, joinChunks } from './anthropic-stream';
import { estimateTokens } from './openai';
import { type BodyErrorMapper, convertSdkStream } from './sdk-errors';

/** The SDK's `error` is the whole error body (`{type: "error", error: {…}}`). */
const fromBody: BodyErrorMapper = (body, status, retryAfterMs) =>
  anthropicErrorFromBody(body, {
    ...(status !== undefined ? { status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });

type CreateParams = Parameters<Anthropic['messages']['create']>[0];

export class SdkAnthropicContentGenerator implements ContentGenerator {
  readonly provider: string;

  constructor(
    private readonly client: Anthropic,
    providerName: string,
  ) {
    this.provider = providerName;
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    const chunks: GenerateResponse[] = [];
    for await (const chunk of this.generateContentStream(request, signal)) chunks.push(chunk);
    return joinChunks(chunks);
  }

  generateContentStream(request: GenerateRequest, signal: AbortSignal): AsyncGenerator<GenerateResponse> {
    const body = toAnthropicRequestBody(request, { stream: true });
    const open = async (linked: AbortSignal) =>
      (await this.client.messages.create(body as unknown as CreateParams, {
        signal: linked,
      })) as unknown as AsyncIterable<unknown>;
    return convertSdkStream(open, signal, new AnthropicStreamConverter(), fromBody);
  }

  async countTokens(request: GenerateRequest): Promise<CountTokensResponse> {
    return estimateTokens(request);
  }
}

export async function createSdkAnthropicGenerator(
  options: AnthropicClientOptions,
): Promise<SdkAnthropicContentGenerator> {
  const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
  const client = new AnthropicSdk({
    apiKey: options.apiKey,
    baseURL: (options.baseUrl || DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, ''),
    // kodo's Chat owns retries (one policy for every provider).
    maxRetries: 0,
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
  });
  return new SdkAnthropicContentGenerator(client, options.providerName ?? 'anthropic');
}
