/**
 * Each adapter names a refused key as such (exit 41), in its own vendor's words, and nothing
 * else: the end-to-end runs against the mock servers are in the CLI's auth-exit.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { anthropicErrorFromBody } from '../../src/llm/providers/anthropic-convert';
import { apiErrorFromHttp, apiErrorFromStreamChunk } from '../../src/llm/providers/gemini-errors';
import { openAIErrorFromBody } from '../../src/llm/providers/openai-convert';

const google = (code: number, status: string, message: string, details?: unknown[]) =>
  JSON.stringify({ error: { code, status, message, ...(details ? { details } : {}) } });
const keyInfo = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }];

describe('auth failures at the adapter boundary', () => {
  it('Gemini: 400 API_KEY_INVALID, 401 and 403 are auth failures; other 400s are not', () => {
    const exit = (status: number, body: string) => apiErrorFromHttp(status, undefined, body).exitCode;
    expect(exit(400, google(400, 'INVALID_ARGUMENT', 'Bad.\nkey', keyInfo))).toBe(41);
    expect(
      exit(400, google(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.')),
    ).toBe(41);
    expect(exit(401, google(401, 'UNAUTHENTICATED', 'no'))).toBe(41);
    expect(exit(403, google(403, 'PERMISSION_DENIED', 'no'))).toBe(41);
    expect(
      exit(400, google(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.')),
    ).toBeUndefined();
    expect(exit(400, google(400, 'FAILED_PRECONDITION', 'User location is not supported.'))).toBeUndefined();
    expect(exit(429, google(429, 'RESOURCE_EXHAUSTED', 'quota'))).toBeUndefined();
    // One line for the person.
    expect(
      apiErrorFromHttp(400, undefined, google(400, 'INVALID_ARGUMENT', 'Bad.\nkey', keyInfo)).message,
    ).toBe('Bad. key');
    // Also when the API reports it inside a stream.
    expect(apiErrorFromStreamChunk({ error: { code: 403, message: 'denied' } })?.exitCode).toBe(41);
  });

  it('OpenAI: 401 and an invalid_api_key are; a 403 for an unsupported country is not', () => {
    expect(
      openAIErrorFromBody({ error: { message: 'x', code: 'invalid_api_key' } }, { status: 401 }).exitCode,
    ).toBe(41);
    expect(openAIErrorFromBody({ error: { message: 'x', code: 'invalid_api_key' } }).exitCode).toBe(41);
    expect(
      openAIErrorFromBody(
        {
          error: {
            message: 'x',
            type: 'invalid_request_error',
            code: 'unsupported_country_region_territory',
          },
        },
        { status: 403 },
      ).exitCode,
    ).toBeUndefined();
    expect(
      openAIErrorFromBody({ error: { message: 'bad model' } }, { status: 400 }).exitCode,
    ).toBeUndefined();
  });

  it('Anthropic: 401 authentication_error and 403 permission_error are, also inside a stream', () => {
    expect(anthropicErrorFromBody({ error: { type: 'authentication_error', message: 'x' } }).exitCode).toBe(
      41,
    );
    expect(anthropicErrorFromBody({ error: { type: 'permission_error', message: 'x' } }).exitCode).toBe(41);
    expect(
      anthropicErrorFromBody({ error: { type: 'invalid_request_error', message: 'x' } }).exitCode,
    ).toBeUndefined();
    expect(
      anthropicErrorFromBody({ error: { type: 'overloaded_error', message: 'x' } }).exitCode,
    ).toBeUndefined();
  });
});
