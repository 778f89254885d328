/**
 * What kodo reads of a Chat Completions answer, checked before the converter trusts it
 * (response-shape.ts): a wrong type is named (`choices[0].delta.tool_calls must be an array (got
 * object)`) instead of being skipped — a skipped `tool_calls` or `arguments` would silently turn
 * the model's call into nothing, or into a call with no arguments. `null` passes where servers
 * send it for an absent field.
 */
import { expectFields, expectKind, objectAt } from '../response-shape';

type Json = Record<string, unknown>;

export const OPENAI_SOURCE = 'the OpenAI-compatible API';

/** One `chat.completion.chunk`. */
export function checkOpenAIChunk(value: unknown): Json {
  const chunk = objectAt(value, 'a stream chunk');
  checkChoices(chunk, 'delta');
  checkUsage(chunk.usage);
  return chunk;
}

/** A whole `chat.completion` (not streamed). */
export function checkOpenAICompletion(value: unknown): Json {
  const completion = objectAt(value, 'the completion');
  checkChoices(completion, 'message');
  checkUsage(completion.usage);
  return completion;
}

function checkChoices(body: Json, field: 'delta' | 'message'): void {
  expectKind(body.choices, 'array', 'choices', { optional: true, nullable: true });
  for (const [index, entry] of ((body.choices as unknown[] | null | undefined) ?? []).entries()) {
    const path = `choices[${index}]`;
    const choice = objectAt(entry, path);
    expectFields(choice, path, { index: 'number', finish_reason: 'string' }, { nullable: true });
    expectKind(choice[field], 'object', `${path}.${field}`, { optional: true, nullable: true });
    if (choice[field]) checkMessage(choice[field] as Json, `${path}.${field}`);
  }
}

function checkMessage(message: Json, path: string): void {
  expectFields(
    message,
    path,
    {
      content: 'string',
      reasoning_content: 'string',
      reasoning: 'string',
      refusal: 'string',
      tool_calls: 'array',
    },
    { nullable: true },
  );
  for (const [index, entry] of ((message.tool_calls as unknown[] | null | undefined) ?? []).entries()) {
    const callPath = `${path}.tool_calls[${index}]`;
    const call = objectAt(entry, callPath);
    expectFields(call, callPath, { index: 'number', id: 'string', function: 'object' }, { nullable: true });
    const fn = call.function as Json | null | undefined;
    if (!fn) continue;
    expectKind(fn.name, 'string', `${callPath}.function.name`, { optional: true, nullable: true });
    // Some compatible servers send the arguments already parsed: an object is read as its JSON.
    const args = fn.arguments;
    if (args !== null && typeof args === 'object' && !Array.isArray(args)) continue;
    expectKind(args, 'string', `${callPath}.function.arguments`, { optional: true, nullable: true });
  }
}

function checkUsage(value: unknown): void {
  expectKind(value, 'object', 'usage', { optional: true, nullable: true });
  if (!value) return;
  const usage = value as Json;
  expectFields(
    usage,
    'usage',
    {
      prompt_tokens: 'number',
      completion_tokens: 'number',
      total_tokens: 'number',
      prompt_tokens_details: 'object',
      completion_tokens_details: 'object',
    },
    { nullable: true },
  );
  if (usage.prompt_tokens_details) {
    expectFields(
      usage.prompt_tokens_details as Json,
      'usage.prompt_tokens_details',
      { cached_tokens: 'number' },
      {
        nullable: true,
      },
    );
  }
  if (usage.completion_tokens_details) {
    expectFields(
      usage.completion_tokens_details as Json,
      'usage.completion_tokens_details',
      { reasoning_tokens: 'number' },
      { nullable: true },
    );
  }
}
