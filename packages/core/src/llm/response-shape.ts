/**
 * Shape checks for what a model API sends, where it is read (each adapter, the recorded-response
 * generator): a value of the wrong type is named in one line (`candidates[0].content.parts must
 * be an array (got string)`), before any code trusts the shape and fails with JavaScript's words.
 * The checks walk only what kodo reads, once per chunk; unknown fields are left alone.
 */
import { ApiError } from '../contracts/errors';
import type { GenerateResponse } from '../contracts/messages';
import { kindOf } from '../utils/json-kind';

/** A value of the wrong shape: `message` is the path and what was expected, without a source. */
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

type Kind = 'object' | 'array' | 'string' | 'number' | 'boolean';
type Json = Record<string, unknown>;

const ARTICLE: Record<Kind, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
};

/**
 * Throws ShapeError unless `value` is of `kind`. `optional`: undefined passes; `nullable`: null
 * passes (OpenAI-compatible servers send `null` for absent fields).
 */
export function expectKind(
  value: unknown,
  kind: Kind,
  path: string,
  options: { optional?: boolean; nullable?: boolean } = {},
): void {
  if (value === undefined && options.optional) return;
  if (value === null && options.nullable) return;
  const got = kindOf(value);
  if (got === kind && (kind !== 'number' || Number.isFinite(value))) return;
  throw new ShapeError(`${path} must be ${ARTICLE[kind]} (got ${got})`);
}

/** `value` as an object, or a ShapeError naming `path`. */
export function objectAt(value: unknown, path: string): Json {
  expectKind(value, 'object', path);
  return value as Json;
}

/** Each listed field of `record`, when present, has its kind. */
export function expectFields(
  record: Json,
  path: string,
  fields: Readonly<Record<string, Kind>>,
  options: { nullable?: boolean } = {},
): void {
  for (const [key, kind] of Object.entries(fields)) {
    expectKind(record[key], kind, `${path}${path ? '.' : ''}${key}`, { optional: true, ...options });
  }
}

/** A shape error as the failure of the request that received it (not retried: it will recur). */
export function malformedResponse(source: string, detail: string): ApiError {
  return new ApiError(`Malformed response from ${source}: ${detail}.`, { code: 'ERR_MALFORMED_RESPONSE' });
}

/** Runs a read; a ShapeError becomes the request's ApiError, naming where the response came from. */
export function readShape<T>(source: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ShapeError) throw malformedResponse(source, error.message);
    throw error;
  }
}

const USAGE_FIELDS: Record<string, Kind> = {
  promptTokenCount: 'number',
  candidatesTokenCount: 'number',
  totalTokenCount: 'number',
  cachedContentTokenCount: 'number',
  thoughtsTokenCount: 'number',
  toolUsePromptTokenCount: 'number',
};

/**
 * A response in Gemini's shape (kodo's message model): what the Gemini API sends and what
 * recorded responses hold. Throws ShapeError naming the first wrong field.
 */
export function checkGenerateResponse(value: unknown): GenerateResponse {
  const response = objectAt(value, 'a response');
  expectKind(response.candidates, 'array', 'candidates', { optional: true });
  for (const [index, entry] of ((response.candidates as unknown[] | undefined) ?? []).entries()) {
    checkCandidate(entry, `candidates[${index}]`);
  }
  if (response.usageMetadata !== undefined) {
    expectFields(objectAt(response.usageMetadata, 'usageMetadata'), 'usageMetadata', USAGE_FIELDS);
  }
  expectFields(response, '', { modelVersion: 'string', responseId: 'string' });
  return response as GenerateResponse;
}

function checkCandidate(value: unknown, path: string): void {
  const candidate = objectAt(value, path);
  expectFields(candidate, path, {
    finishReason: 'string',
    index: 'number',
    citationMetadata: 'object',
    groundingMetadata: 'object',
    urlContextMetadata: 'object',
    safetyRatings: 'array',
  });
  if (candidate.content === undefined) return;
  const content = objectAt(candidate.content, `${path}.content`);
  expectFields(content, `${path}.content`, { role: 'string', parts: 'array' });
  for (const [index, part] of ((content.parts as unknown[] | undefined) ?? []).entries()) {
    checkPart(part, `${path}.content.parts[${index}]`);
  }
  const citations = (candidate.citationMetadata as Json | undefined)?.citations;
  expectKind(citations, 'array', `${path}.citationMetadata.citations`, { optional: true });
  const grounding = candidate.groundingMetadata as Json | undefined;
  if (grounding) {
    expectFields(grounding, `${path}.groundingMetadata`, {
      groundingChunks: 'array',
      groundingSupports: 'array',
      webSearchQueries: 'array',
    });
  }
}

function checkPart(value: unknown, path: string): void {
  const part = objectAt(value, path);
  expectFields(part, path, {
    text: 'string',
    thought: 'boolean',
    thoughtSignature: 'string',
    functionCall: 'object',
    functionResponse: 'object',
    inlineData: 'object',
  });
  const call = part.functionCall as Json | undefined;
  if (call) {
    expectKind(call.name, 'string', `${path}.functionCall.name`);
    expectFields(call, `${path}.functionCall`, { id: 'string', args: 'object' });
  }
  const data = part.inlineData as Json | undefined;
  if (data) {
    expectKind(data.mimeType, 'string', `${path}.inlineData.mimeType`);
    expectKind(data.data, 'string', `${path}.inlineData.data`);
  }
}
