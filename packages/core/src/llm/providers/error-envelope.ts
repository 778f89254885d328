/**
 * The error bodies of OpenAI-compatible servers and Anthropic: a JSON envelope `{"error": …}`,
 * in an HTTP error response, inside a stream or from an SDK. Each provider says where its message
 * and status are; turning them into an ApiError, and reading an HTTP error body that may as well
 * be plain text or a proxy's HTML page, is the same for both.
 */
import { ApiError } from '../../contracts/errors';
import { oneLine } from './gemini-errors';
import { type HttpErrorMapper, retryAfterFromHeaders } from './http-stream';

type Json = Record<string, unknown>;

/** What is known besides the body: the HTTP status, the server's delay, a text to show when the
 * body has no message. */
export interface ErrorFallback {
  status?: number;
  retryAfterMs?: number;
  text?: string;
}

/** What a provider finds in the envelope's `error` (`fields`: it as an object, `{}` if it is not). */
export type EnvelopeReader = (error: unknown, fields: Json) => { message?: string; status?: number };

/** Whether the provider refused the credentials, from the final status and the envelope's fields. */
export type AuthFailureTest = (status: number, fields: Json) => boolean;

/**
 * An envelope → ApiError; the fallback's status wins, its text stands in for a missing message.
 * `isAuthFailure` (the provider's way of saying "bad key") marks the error for exit 41, with its
 * message on one line.
 */
export function errorFromEnvelope(
  body: unknown,
  fallback: ErrorFallback,
  read: EnvelopeReader,
  defaultText: string,
  isAuthFailure: AuthFailureTest = () => false,
): ApiError {
  const error = (body as { error?: unknown } | null)?.error;
  const fields = (error && typeof error === 'object' ? error : {}) as Json;
  const found = read(error, fields);
  const status = fallback.status ?? found.status ?? 500;
  const message = found.message ?? fallback.text ?? defaultText;
  const authFailure = isAuthFailure(status, fields);
  return new ApiError(authFailure ? oneLine(message) : message, {
    status,
    ...(fallback.retryAfterMs !== undefined ? { retryAfterMs: fallback.retryAfterMs } : {}),
    ...(authFailure ? { authFailure } : {}),
    cause: error,
  });
}

/** The HTTP error mapping of a provider whose envelopes `fromBody` reads. */
export function envelopeHttpError(
  fromBody: (body: unknown, fallback: ErrorFallback) => ApiError,
): HttpErrorMapper {
  return ({ status, statusText, body: text, headers }) => {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const snippet = text.trim().slice(0, 500);
    const retryAfterMs = retryAfterFromHeaders(headers);
    return fromBody(body, {
      status,
      text: `HTTP ${status}${statusText ? ` ${statusText}` : ''}${snippet ? `: ${snippet}` : ''}`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  };
}

/** A non-empty string, else undefined. */
export function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
