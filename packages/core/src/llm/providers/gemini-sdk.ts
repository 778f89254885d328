/**
 * The Gemini ContentGenerator on top of the official `@google/genai` SDK (selected with
 * `KODO_GEMINI_TRANSPORT=sdk`). Same contract and error mapping as the lean client in gemini.ts;
 * useful to check kodo against the SDK's own wire behaviour. The SDK costs ~100 ms to import, so
 * it is only ever loaded through the dynamic import in `createSdkGeminiGenerator`.
 */
import type {
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  GoogleGenAI,
} from '@google/genai';
import type { ContentGenerator } from '../content-generator';
import { ApiError, abortError, isAbortError } from '../errors';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../types';
import { DEFAULT_GEMINI_API_VERSION, DEFAULT_GEMINI_BASE_URL, type GeminiClientOptions } from './gemini';
import { apiErrorFromHttp, malformedChunkError, networkApiError } from './gemini-errors';

const UNDICI_GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  dispatch(options: Record<string, unknown>, handler: unknown): boolean;
}

/**
 * What the SDK's default fetch path does, kept because passing our own `fetch` switches it off:
 * no undici headers/body timeouts, since a thinking model can be silent for minutes.
 */
function noTimeoutDispatcher(): Dispatcher | undefined {
  const globals = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  if (!globals[UNDICI_GLOBAL_DISPATCHER]) new Headers(); // makes Node initialise undici
  const global = globals[UNDICI_GLOBAL_DISPATCHER];
  if (typeof global?.dispatch !== 'function') return undefined;
  return {
    dispatch: (options, handler) =>
      global.dispatch({ ...options, headersTimeout: 0, bodyTimeout: 0 }, handler),
  };
}

/**
 * The SDK turns an HTTP error into its own ApiError holding only the status and the body as a
 * JSON string; the `Retry-After` header is lost. Failing the fetch ourselves keeps it: the SDK
 * rethrows errors from `fetch` unchanged.
 */
function fetchKeepingHttpErrors(): typeof fetch {
  return async (input, init) => {
    const dispatcher = noTimeoutDispatcher();
    const response = await fetch(
      input,
      dispatcher ? ({ ...init, dispatcher } as unknown as RequestInit) : init,
    );
    if (response.ok) return response;
    const text = await response.text();
    throw apiErrorFromHttp(response.status, response.statusText, text, response.headers.get('retry-after'));
  };
}

/** The SDK's ApiError message is the error body as JSON, sometimes after `got status: X. `. */
function fromSdkApiError(error: Error & { status: number }): ApiError {
  const jsonStart = error.message.indexOf('{');
  if (jsonStart === -1) return new ApiError(error.message, { status: error.status, cause: error });
  return apiErrorFromHttp(error.status, undefined, error.message.slice(jsonStart));
}

function hasCode(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    if (typeof (current as { code?: unknown }).code === 'string') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function toApiError(error: unknown, signal: AbortSignal, during: string): Error {
  if (signal.aborted || isAbortError(error)) return abortError();
  if (error instanceof ApiError) return error;
  if (!(error instanceof Error)) return new ApiError(`Gemini SDK failure ${during}: ${String(error)}`);
  const status = (error as { status?: unknown }).status;
  if (error.name === 'ApiError' && typeof status === 'number') {
    return fromSdkApiError(error as Error & { status: number });
  }
  // `chunk.json()` on a broken chunk, or the SDK's "Incomplete JSON segment at the end".
  if (
    error instanceof SyntaxError ||
    /incomplete json segment|exception parsing stream chunk/i.test(error.message)
  ) {
    return malformedChunkError(error.message, error);
  }
  // undici: `fetch failed` / `terminated`, with the socket error (and its code) as the cause.
  if (hasCode(error) || /fetch failed|terminated/i.test(error.message)) return networkApiError(error, during);
  return new ApiError(`Gemini SDK failure ${during}: ${error.message}`, { cause: error });
}

/** SDK responses are class instances with an extra `sdkHttpResponse`; kodo wants plain wire JSON. */
function toKodoResponse(response: GenerateContentResponse): GenerateResponse {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(response)) {
    if (key !== 'sdkHttpResponse' && value !== undefined) out[key] = value;
  }
  return out as GenerateResponse;
}

/** Links a private controller to the caller's signal, so an early `return()` can cancel too. */
function linkedController(signal: AbortSignal): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => signal.removeEventListener('abort', onAbort) };
}

export class SdkGeminiContentGenerator implements ContentGenerator {
  readonly provider = 'gemini';

  constructor(private readonly client: GoogleGenAI) {}

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    if (signal.aborted) throw abortError();
    try {
      const response = await this.client.models.generateContent(this.params(request, signal));
      return toKodoResponse(response);
    } catch (error) {
      throw toApiError(error, signal, 'calling generateContent');
    }
  }

  async countTokens(request: GenerateRequest, signal: AbortSignal): Promise<CountTokensResponse> {
    if (signal.aborted) throw abortError();
    try {
      const response = await this.client.models.countTokens({
        model: request.model,
        contents: request.contents as GenerateContentParameters['contents'],
        config: { abortSignal: signal },
      });
      const result: CountTokensResponse = { totalTokens: response.totalTokens ?? 0 };
      if (response.cachedContentTokenCount !== undefined) {
        result.cachedContentTokenCount = response.cachedContentTokenCount;
      }
      return result;
    } catch (error) {
      throw toApiError(error, signal, 'calling countTokens');
    }
  }

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    if (signal.aborted) throw abortError();
    const link = linkedController(signal);
    let finished = false;
    try {
      let stream: AsyncGenerator<GenerateContentResponse>;
      try {
        stream = await this.client.models.generateContentStream(this.params(request, link.controller.signal));
      } catch (error) {
        throw toApiError(error, signal, 'calling streamGenerateContent');
      }
      while (true) {
        let step: IteratorResult<GenerateContentResponse>;
        try {
          step = await stream.next();
        } catch (error) {
          throw toApiError(error, signal, 'while streaming the response');
        }
        if (step.done) {
          finished = true;
          return;
        }
        if (signal.aborted) throw abortError();
        yield toKodoResponse(step.value);
      }
    } finally {
      // The SDK's generator only releases its reader on return(); aborting is what closes the
      // socket when the consumer stops early or the stream failed.
      if (!finished) link.controller.abort();
      link.dispose();
    }
  }

  private params(request: GenerateRequest, signal: AbortSignal): GenerateContentParameters {
    // One request per call: automatic continuation would issue follow-up requests on its own.
    const config: GenerateContentConfig = { abortSignal: signal, automaticContinuation: false };
    if (request.systemInstruction) config.systemInstruction = request.systemInstruction;
    if (request.tools && request.tools.length > 0) {
      config.tools = [
        {
          functionDeclarations: request.tools.map(({ name, description, parametersJsonSchema }) => ({
            name,
            description,
            parametersJsonSchema,
          })),
        },
      ];
    }
    if (request.builtinTools && request.builtinTools.length > 0) {
      const builtins = request.builtinTools.map((tool) => ({ [tool]: {} }));
      config.tools = [...(config.tools ?? []), ...builtins];
    }
    const generation = request.config;
    if (generation?.temperature !== undefined) config.temperature = generation.temperature;
    if (generation?.topP !== undefined) config.topP = generation.topP;
    if (generation?.topK !== undefined) config.topK = generation.topK;
    if (generation?.maxOutputTokens !== undefined) config.maxOutputTokens = generation.maxOutputTokens;
    if (generation?.includeThoughts !== undefined || generation?.thinkingBudget !== undefined) {
      config.thinkingConfig = {};
      if (generation.includeThoughts !== undefined)
        config.thinkingConfig.includeThoughts = generation.includeThoughts;
      if (generation.thinkingBudget !== undefined)
        config.thinkingConfig.thinkingBudget = generation.thinkingBudget;
    }
    return {
      model: request.model,
      contents: request.contents as GenerateContentParameters['contents'],
      config,
    };
  }
}

/** Loads the SDK (dynamically, off the startup path) and builds the generator. */
export async function createSdkGeminiGenerator(
  options: GeminiClientOptions,
): Promise<SdkGeminiContentGenerator> {
  const { GoogleGenAI } = await import('@google/genai');
  const client = new GoogleGenAI({
    apiKey: options.apiKey,
    // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot reroute kodo's requests.
    vertexai: false,
    apiVersion: options.apiVersion ?? DEFAULT_GEMINI_API_VERSION,
    httpOptions: {
      baseUrl: (options.baseUrl || DEFAULT_GEMINI_BASE_URL).replace(/\/+$/, ''),
      headers: options.headers,
      fetch: fetchKeepingHttpErrors(),
    },
  });
  return new SdkGeminiContentGenerator(client);
}
