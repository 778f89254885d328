/**
 * The lean Gemini REST client: kodo's default way to talk to the Gemini API.
 *
 * Why not the official SDK: `@google/genai` costs ~100 ms to import, and global `fetch` makes Node
 * load undici lazily on first use (~25 ms), both on the path to the first request. This client
 * speaks the same REST protocol with `node:http`/`node:https`, loaded only when a request is made.
 * The wire format already matches kodo's message model (types.ts), so responses pass through.
 */

import type { ContentGenerator } from '../../contracts/content-generator';
import type {
  CountTokensResponse,
  GenerateRequest,
  GenerateResponse,
  GenerationConfig,
} from '../../contracts/messages';
import { boundFunctionCallArgs } from '../args-depth';
import { checkGenerateResponse, expectFields, readShape } from '../response-shape';
import { geminiStructuredOutput } from '../structured-output/gemini';
import { jsonSchemaTools } from './freeform';
import { apiErrorFromHttp, apiErrorFromStreamChunk, malformedChunkError } from './gemini-errors';
import {
  type HttpErrorMapper,
  type JsonPost,
  openPost,
  parseJsonPayload,
  postText,
  type TransportOptions,
} from './http-stream';

export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
export const DEFAULT_GEMINI_API_VERSION = 'v1beta';

export interface GeminiClientOptions {
  apiKey: string;
  /** Scheme, host and optional path prefix; default `https://generativelanguage.googleapis.com`. */
  baseUrl?: string;
  apiVersion?: string;
  /** Extra request headers (e.g. for a proxy). */
  headers?: Record<string, string>;
  /** Timeouts and the hint for an unreachable endpoint, passed to every request. */
  transportOptions?: TransportOptions;
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
  const thinking: Record<string, unknown> = {};
  if (config.includeThoughts !== undefined) thinking.includeThoughts = config.includeThoughts;
  // Gemini 3 takes a level and refuses a budget beside it; 2.5 takes a budget.
  if (config.thinkingLevel !== undefined) thinking.thinkingLevel = config.thinkingLevel;
  else if (config.thinkingBudget !== undefined) thinking.thinkingBudget = config.thinkingBudget;
  if (Object.keys(thinking).length > 0) out.thinkingConfig = thinking;
  if (config.responseJsonSchema) Object.assign(out, geminiStructuredOutput(config.responseJsonSchema));
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The REST body of generateContent / streamGenerateContent. `systemInstruction` carries role
 * `user` and tools use `parametersJsonSchema` (a plain JSON Schema, not the OpenAPI subset of
 * `parameters`) — both exactly as `@google/genai` sends them (the testkit's tests pin the SDK to
 * the body gemini-wire.test.ts expects from this client).
 */
export function toGeminiRequestBody(request: GenerateRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { contents: request.contents };
  if (request.systemInstruction) {
    body.systemInstruction = { role: 'user', parts: [{ text: request.systemInstruction }] };
  }
  const tools = jsonSchemaTools(request.tools);
  if (tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: tools.map(({ name, description, parametersJsonSchema }) => ({
          name,
          description,
          parametersJsonSchema,
        })),
      },
    ];
  }
  // Server-side tools go as their own entries: `{googleSearch: {}}`, `{urlContext: {}}`.
  if (request.builtinTools && request.builtinTools.length > 0) {
    // kodo's provider-neutral `webSearch` is Google Search on Gemini.
    const builtins = request.builtinTools.map((tool) => ({
      [tool === 'webSearch' ? 'googleSearch' : tool]: {},
    }));
    body.tools = [...((body.tools as unknown[] | undefined) ?? []), ...builtins];
  }
  const generationConfig = toGenerationConfig(request.config);
  if (generationConfig) body.generationConfig = generationConfig;
  return body;
}

const geminiHttpError: HttpErrorMapper = ({ status, statusText, body, headers }) =>
  apiErrorFromHttp(status, statusText, body, headers['retry-after']);

/** One answer or stream chunk: a JSON object, or the API error it carries in band. */
function parseJson(payload: string): Record<string, unknown> {
  const value = parseJsonPayload(payload);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw malformedChunkError(payload);
  const inBandError = apiErrorFromStreamChunk(value);
  if (inBandError) throw inBandError;
  return value as Record<string, unknown>;
}

const SOURCE = 'the Gemini API';

/** A chunk or answer whose shape kodo reads, checked before anything trusts it. */
function checkedResponse(value: Record<string, unknown>): GenerateResponse {
  return readShape(SOURCE, () => checkGenerateResponse(value));
}

export class GeminiContentGenerator implements ContentGenerator {
  readonly provider = 'gemini';
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly transportOptions: TransportOptions;

  constructor(options: GeminiClientOptions) {
    this.transportOptions = options.transportOptions ?? {};
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
    return boundFunctionCallArgs(checkedResponse(parsed));
  }

  async countTokens(request: GenerateRequest, signal: AbortSignal): Promise<CountTokensResponse> {
    // The Gemini API (unlike Vertex) rejects systemInstruction/tools here, as the SDK does.
    const parsed = await this.unary(request.model, 'countTokens', { contents: request.contents }, signal);
    readShape(SOURCE, () =>
      expectFields(parsed, '', { totalTokens: 'number', cachedContentTokenCount: 'number' }),
    );
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
    const post = this.post(request.model, 'streamGenerateContent', toGeminiRequestBody(request), signal);
    // Over-deep tool arguments are replaced as soon as they are read (args-depth.ts).
    const answer = await openPost(post);
    for await (const payload of answer.events())
      yield boundFunctionCallArgs(checkedResponse(parseJson(payload)));
  }

  private async unary(
    model: string,
    method: string,
    body: unknown,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    return parseJson(await postText(this.post(model, method, body, signal)));
  }

  /** The request for one REST method; streaming goes as SSE (`?alt=sse`). */
  private post(model: string, method: string, body: unknown, signal: AbortSignal): JsonPost {
    const sse = method === 'streamGenerateContent' ? '?alt=sse' : '';
    const url = new URL(`${this.base}/${modelResourceName(model)}:${method}${sse}`);
    return { url, headers: this.headers, body, signal, httpError: geminiHttpError, ...this.transportOptions };
  }
}
