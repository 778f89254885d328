/** The process exit code of a missing or refused credential (Gemini CLI's). */
export const AUTH_EXIT_CODE = 41;

/**
 * Errors raised by ContentGenerators. The Chat layer reads `status`, `code` and `retryAfterMs` to
 * decide on retries; front ends read `exitCode` to choose the process exit status.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status, when the failure came from an HTTP response. */
  readonly status: number | undefined;
  /** Node/undici network error code (ECONNRESET, …), when there was one. */
  readonly code: string | undefined;
  /** Server-requested delay (Retry-After header or RetryInfo detail), in ms. */
  readonly retryAfterMs: number | undefined;
  /**
   * Attempts in all this failure is worth, when fewer than the retry policy allows: a timeout is
   * tried once more, a refused local endpoint not again (nothing will start listening meanwhile).
   */
  readonly maxAttempts: number | undefined;
  /**
   * The provider refused the credentials (each adapter knows its own way of saying so): exit 41
   * in every output format, instead of the HTTP status.
   */
  readonly exitCode: number | undefined;

  constructor(
    message: string,
    options: {
      status?: number;
      code?: string;
      retryAfterMs?: number;
      maxAttempts?: number;
      /** The key was refused (not just any 4xx): see `exitCode`. */
      authFailure?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.retryAfterMs = options.retryAfterMs;
    this.maxAttempts = options.maxAttempts;
    this.exitCode = options.authFailure ? AUTH_EXIT_CODE : undefined;
  }
}

/** Authentication is missing or was rejected. Exit code 41. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly exitCode = AUTH_EXIT_CODE;
}

/**
 * A stream that ended without a usable answer (the kinds below). Retried by Chat; surfaced
 * as an InvalidStream event when the retries run out.
 */
export type InvalidStreamType =
  | 'NO_FINISH_REASON'
  | 'MALFORMED_FUNCTION_CALL'
  | 'UNEXPECTED_TOOL_CALL'
  | 'MAX_TOKENS_EXCEEDED'
  | 'SAFETY_BLOCKED'
  | 'RECITATION_BLOCKED'
  | 'OTHER_BLOCKED'
  | 'THINKING_ONLY_RESPONSE'
  | 'NO_RESPONSE_TEXT';

export const INVALID_STREAM_MESSAGES: Record<InvalidStreamType, string> = {
  NO_FINISH_REASON: 'Model stream ended without a finish reason.',
  MALFORMED_FUNCTION_CALL: 'Model stream ended with malformed function call.',
  UNEXPECTED_TOOL_CALL: 'Model stream ended with unexpected tool call.',
  MAX_TOKENS_EXCEEDED:
    'Model response was truncated because it exceeded the token limit. Try using /compress to free up context space.',
  SAFETY_BLOCKED: 'The model response was blocked due to safety settings.',
  RECITATION_BLOCKED: 'The model response was blocked due to recitation/copyright filters.',
  OTHER_BLOCKED: 'The model response was blocked due to other policy settings.',
  THINKING_ONLY_RESPONSE:
    'The model returned reasoning thoughts but no final response text. If your context window is near capacity, try using /compress.',
  NO_RESPONSE_TEXT:
    'The model returned an empty response with no text or thoughts. This may be a transient API issue; please try again.',
};

export class InvalidStreamError extends Error {
  override readonly name = 'InvalidStreamError';
  constructor(readonly type: InvalidStreamType) {
    super(INVALID_STREAM_MESSAGES[type]);
  }
}

export function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR')
  );
}

export function abortError(reason = 'The operation was aborted'): Error {
  return new DOMException(reason, 'AbortError');
}

/** A failure's short type for stats and telemetry: the HTTP status, a network code, or the class. */
export function errorTypeName(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return String(status);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'Error';
}
