/**
 * Turns what can go wrong on the Gemini wire into `ApiError`s the retry layer understands
 * (agent/retry.ts): HTTP failures keep their status and the server's requested delay, network
 * failures keep a Node-style `code`, and a broken stream chunk gets `ERR_MALFORMED_CHUNK` plus the
 * `incomplete json segment` wording Gemini CLI matches on. http-stream.ts uses the network and
 * malformed-chunk helpers for every provider, so all failures retry the same way.
 */
import { ApiError } from '../../contracts/errors';

/** Google's JSON error envelope: `{"error": {"code", "message", "status", "details"}}`. */
interface GoogleErrorEnvelope {
  error?: { code?: unknown; message?: unknown; status?: unknown; details?: unknown };
}

const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/** `Retry-After` is either delta-seconds or an HTTP date; returns ms from `now`, never negative. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** A protobuf JSON Duration such as `"12s"`, `"0.250s"` or `"1.5s"`, in ms. */
export function parseProtoDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/** The `retryDelay` of a `google.rpc.RetryInfo` detail, in ms. */
export function retryDelayFromDetails(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (
      detail &&
      typeof detail === 'object' &&
      (detail as Record<string, unknown>)['@type'] === RETRY_INFO_TYPE
    ) {
      const delay = parseProtoDuration((detail as Record<string, unknown>).retryDelay);
      if (delay !== undefined) return delay;
    }
  }
  return undefined;
}

function parseEnvelope(text: string): GoogleErrorEnvelope | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    // Some front ends wrap the envelope in a one-element array.
    const envelope = Array.isArray(parsed) ? parsed[0] : parsed;
    if (envelope && typeof envelope === 'object' && 'error' in envelope)
      return envelope as GoogleErrorEnvelope;
  } catch {
    // Not JSON (an HTML error page from a proxy, say): the caller falls back to the raw text.
  }
  return undefined;
}

/**
 * An HTTP error response. The message is Google's own (`error.message`) when the body is the usual
 * JSON envelope; the delay comes from `Retry-After`, else from a RetryInfo detail.
 */
export function apiErrorFromHttp(
  status: number,
  statusText: string | undefined,
  bodyText: string,
  retryAfterHeader?: string | null,
): ApiError {
  const envelope = parseEnvelope(bodyText);
  const googleMessage = envelope?.error?.message;
  let message: string;
  if (typeof googleMessage === 'string' && googleMessage !== '') {
    message = googleMessage;
  } else {
    const snippet = bodyText.trim().slice(0, 500);
    message = `HTTP ${status}${statusText ? ` ${statusText}` : ''}${snippet ? `: ${snippet}` : ''}`;
  }
  const retryAfterMs = parseRetryAfter(retryAfterHeader) ?? retryDelayFromDetails(envelope?.error?.details);
  const authFailure = isGeminiAuthFailure(status, envelope?.error);
  return new ApiError(authFailure ? oneLine(message) : message, {
    status,
    retryAfterMs,
    authFailure,
    cause: envelope?.error,
  });
}

const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
/** How the API words a key it refuses, when the ErrorInfo detail is missing (proxies, mocks). */
const KEY_REFUSED = /\bAPI key (not valid|expired|invalid)/i;

/**
 * Whether Google refused the credentials: 401 (UNAUTHENTICATED), 403 (PERMISSION_DENIED: the key
 * may not use this API or model), or a 400 whose ErrorInfo reason is API_KEY_INVALID (a wrong or
 * expired key). Other 400s (a bad argument, an unsupported location) are not.
 */
function isGeminiAuthFailure(status: number | undefined, error: GoogleErrorEnvelope['error']): boolean {
  if (status === 401 || status === 403) return true;
  if (status !== 400 || !error) return false;
  const reasons = Array.isArray(error.details)
    ? error.details
        .filter((detail) => (detail as Record<string, unknown> | null)?.['@type'] === ERROR_INFO_TYPE)
        .map((detail) => (detail as Record<string, unknown>).reason)
    : [];
  return (
    reasons.includes('API_KEY_INVALID') ||
    (typeof error.message === 'string' && KEY_REFUSED.test(error.message))
  );
}

/** A provider's message on one line (the person reads it as the one-line reason of exit 41). */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * The API can also report a failure inside a 200 stream as a chunk `{"error": {...}}`. Returns the
 * ApiError for such a chunk, undefined for an ordinary one.
 */
export function apiErrorFromStreamChunk(chunk: unknown): ApiError | undefined {
  if (!chunk || typeof chunk !== 'object' || !('error' in chunk)) return undefined;
  const error = (chunk as GoogleErrorEnvelope).error;
  if (!error || typeof error !== 'object') return undefined;
  const status = typeof error.code === 'number' ? error.code : undefined;
  const message =
    typeof error.message === 'string' && error.message ? error.message : 'Error in response stream';
  const authFailure = isGeminiAuthFailure(status, error);
  return new ApiError(authFailure ? oneLine(message) : message, {
    status,
    retryAfterMs: retryDelayFromDetails(error.details),
    authFailure,
    cause: error,
  });
}

/** A stream chunk (or unary body) that is not valid JSON. Retryable by code and by wording. */
export function malformedChunkError(payload: string, cause?: unknown): ApiError {
  const snippet = payload.length > 200 ? `${payload.slice(0, 200)}…` : payload;
  return new ApiError(`Malformed response from the model API (incomplete json segment): ${snippet}`, {
    code: 'ERR_MALFORMED_CHUNK',
    cause,
  });
}

/** The first Node/undici `code` along the cause chain (a wrapping error keeps the real one in `cause`). */
function findCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A transport failure: refused connection, reset, DNS, TLS, a socket closed mid-body. ECONNABORTED
 * and undici's UND_ERR_SOCKET (fetch's spelling of a reset) count as ECONNRESET, so a dropped
 * stream reads the same to the retry layer whatever reported it.
 */
export function networkApiError(error: unknown, during: string): ApiError {
  const found = findCode(error);
  const code = found === 'UND_ERR_SOCKET' || found === 'ECONNABORTED' ? 'ECONNRESET' : found;
  const detail = error instanceof Error ? error.message : String(error);
  const causeDetail =
    error instanceof Error && error.cause instanceof Error && error.cause.message !== detail
      ? ` (${error.cause.message})`
      : '';
  return new ApiError(`Network error ${during}: ${detail}${causeDetail}`, { code, cause: error });
}
