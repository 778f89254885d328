/**
 * The OpenAI and Anthropic SDKs share one error design (Stainless): `APIError` with `status`,
 * `headers` and the parsed `error` body, `APIConnectionError` with the socket error as `cause`,
 * `APIUserAbortError` on abort. This maps them onto kodo's errors the way the lean clients report
 * the same failures, so retries behave the same whichever transport runs. No SDK is imported.
 */
import { ApiError, abortError, isAbortError } from '../errors';
import type { GenerateResponse } from '../types';
import { malformedChunkError, networkApiError } from './gemini-errors';
import { retryAfterFromHeaders } from './http-stream';

interface StainlessError extends Error {
  status?: unknown;
  headers?: Headers;
  error?: unknown;
}

/** Maps a status, the parsed body and the requested delay to the provider's ApiError. */
export type BodyErrorMapper = (
  body: unknown,
  status: number | undefined,
  retryAfterMs: number | undefined,
) => ApiError;

function hasCode(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    if (typeof (current as { code?: unknown }).code === 'string') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function fromSdkError(
  error: unknown,
  signal: AbortSignal,
  during: string,
  fromBody: BodyErrorMapper,
): Error {
  if (signal.aborted || isAbortError(error)) return abortError();
  if (error instanceof ApiError) return error;
  if (!(error instanceof Error)) return new ApiError(`SDK failure ${during}: ${String(error)}`);
  // The SDKs' error classes carry no distinct `name` (and a minified bundle renames classes), so
  // they are told apart by shape: HTTP errors have a status, in-stream errors a parsed body.
  const e = error as StainlessError;
  if (typeof e.status === 'number') return fromBody(e.error, e.status, retryAfterFromHeaders(e.headers));
  if (e.error !== undefined && e.error !== null) return fromBody(e.error, undefined, undefined);
  const parseFailure = /could not parse|unexpected token|in json/i.test(error.message);
  if (error instanceof SyntaxError || parseFailure) return malformedChunkError(error.message, error);
  if (
    error.cause !== undefined ||
    hasCode(error) ||
    /terminated|fetch failed|socket|connection/i.test(error.message)
  ) {
    return networkApiError(error.cause ?? error, during);
  }
  return new ApiError(`SDK failure ${during}: ${error.message}`, { cause: error });
}

/** Links a private controller to the caller's signal, so an early `return()` can cancel too. */
export function linkedController(signal: AbortSignal): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * Runs an SDK stream through a converter with the lean clients' semantics: failures mapped, the
 * request cancelled when the consumer stops early, abort honoured between events.
 */
export async function* convertSdkStream<T>(
  open: (signal: AbortSignal) => Promise<AsyncIterable<T>>,
  signal: AbortSignal,
  convert: { push(event: T): Iterable<GenerateResponse>; end(): Iterable<GenerateResponse> },
  fromBody: BodyErrorMapper,
): AsyncGenerator<GenerateResponse> {
  if (signal.aborted) throw abortError();
  const link = linkedController(signal);
  let finished = false;
  try {
    let iterator: AsyncIterator<T>;
    try {
      iterator = (await open(link.controller.signal))[Symbol.asyncIterator]();
    } catch (error) {
      throw fromSdkError(error, signal, 'opening the stream', fromBody);
    }
    while (true) {
      let step: IteratorResult<T>;
      try {
        step = await iterator.next();
      } catch (error) {
        throw fromSdkError(error, signal, 'while streaming the response', fromBody);
      }
      if (signal.aborted) throw abortError();
      if (step.done) break;
      yield* convert.push(step.value);
    }
    yield* convert.end();
    finished = true;
  } finally {
    // Aborting is what releases the SDK's socket when the consumer stops early or a step failed.
    if (!finished) link.controller.abort();
    link.dispose();
  }
}
