/**
 * The lean Anthropic Messages client: kodo's only Anthropic transport (no SDK, see
 * docs/performance.md).
 *
 * `generateContent` streams too and joins the answer: a long non-streamed request can sit silent
 * past proxies' idle timeouts (the SDK refuses large non-streamed requests for that reason), and
 * one code path means one set of wire tests.
 */
import type { ContentGenerator } from '../../contracts/content-generator';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../../contracts/messages';
import { unwrapAnthropicStructuredOutput } from '../structured-output/anthropic';
import { anthropicErrorFromBody, toAnthropicRequestBody } from './anthropic-convert';
import { AnthropicStreamConverter, joinChunks } from './anthropic-stream';
import { envelopeHttpError } from './error-envelope';
import { joinUrl, openPost, parseJsonPayload, type TransportOptions } from './http-stream';
import { estimateTokens } from './openai';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicClientOptions {
  apiKey: string;
  /** Scheme and host (and optional path prefix), without `/v1`. */
  baseUrl?: string;
  headers?: Record<string, string>;
  providerName?: string;
  /** Timeouts and the hint for an unreachable endpoint, passed to every request. */
  transportOptions?: TransportOptions;
}

const httpError = envelopeHttpError(anthropicErrorFromBody);

/** Lets the model think between tool calls (Claude Code sends it too); merged into a configured beta list. */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

/** The headers of one request: thinking with tools asks for interleaved thinking. */
function headersFor(base: Record<string, string>, body: Record<string, unknown>): Record<string, string> {
  if (!body.thinking || !Array.isArray(body.tools) || body.tools.length === 0) return base;
  const betas = (base['anthropic-beta'] ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter(Boolean);
  if (!betas.includes(INTERLEAVED_THINKING_BETA)) betas.push(INTERLEAVED_THINKING_BETA);
  return { ...base, 'anthropic-beta': betas.join(',') };
}

export class AnthropicContentGenerator implements ContentGenerator {
  readonly provider: string;
  private readonly url: URL;
  private readonly headers: Record<string, string>;
  private readonly transportOptions: TransportOptions;

  constructor(options: AnthropicClientOptions) {
    this.transportOptions = options.transportOptions ?? {};
    this.provider = options.providerName ?? 'anthropic';
    this.url = joinUrl(options.baseUrl || DEFAULT_ANTHROPIC_BASE_URL, '/v1/messages');
    this.headers = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'user-agent': 'kodo',
      'anthropic-version': ANTHROPIC_VERSION,
      ...options.headers,
      'x-api-key': options.apiKey,
    };
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    const chunks: GenerateResponse[] = [];
    for await (const chunk of this.generateContentStream(request, signal)) chunks.push(chunk);
    return joinChunks(chunks);
  }

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    const body = toAnthropicRequestBody(request, { stream: true });
    const converter = new AnthropicStreamConverter();
    const answer = await openPost({
      url: this.url,
      headers: headersFor(this.headers, body),
      body,
      signal,
      httpError,
      ...this.transportOptions,
    });
    const events = answer.events();
    const chunks = (async function* () {
      for await (const payload of events) yield* converter.push(parseJsonPayload(payload));
      yield* converter.end();
    })();
    yield* request.config?.responseJsonSchema ? unwrapAnthropicStructuredOutput(chunks) : chunks;
  }

  async countTokens(request: GenerateRequest): Promise<CountTokensResponse> {
    return estimateTokens(request);
  }
}
