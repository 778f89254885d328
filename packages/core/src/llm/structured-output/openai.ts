/**
 * Structured output on OpenAI's APIs. Not `strict`: strict mode accepts only a subset of JSON
 * Schema (every property required, no open objects) and refuses other schemas outright; kodo
 * validates the answer itself either way.
 */
export const OPENAI_SCHEMA_NAME = 'structured_output';

/** Chat Completions: `response_format`. */
export function openAIChatResponseFormat(schema: Record<string, unknown>): Record<string, unknown> {
  return { type: 'json_schema', json_schema: { name: OPENAI_SCHEMA_NAME, schema, strict: false } };
}

/** The Responses API: `text.format`. */
export function openAIResponsesTextFormat(schema: Record<string, unknown>): Record<string, unknown> {
  return { format: { type: 'json_schema', name: OPENAI_SCHEMA_NAME, schema, strict: false } };
}
