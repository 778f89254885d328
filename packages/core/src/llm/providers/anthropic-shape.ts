/**
 * What kodo reads of an Anthropic Messages stream event, checked before the converter trusts it
 * (response-shape.ts): a wrong type is named (`content_block_delta.delta.text must be a string
 * (got number)`) instead of being turned into text with `String()` or skipped. Event and block
 * types kodo does not know pass unchecked (the API adds them).
 */
import { expectFields, expectKind, objectAt } from '../response-shape';

type Json = Record<string, unknown>;

export const ANTHROPIC_SOURCE = 'the Anthropic API';

const USAGE_COUNTS = {
  input_tokens: 'number',
  output_tokens: 'number',
  cache_creation_input_tokens: 'number',
  cache_read_input_tokens: 'number',
} as const;

/** One stream event (`message_start`, `content_block_*`, `message_delta`, …). */
export function checkAnthropicEvent(value: unknown): Json {
  const event = objectAt(value, 'a stream event');
  expectKind(event.type, 'string', 'type');
  const type = event.type as string;
  switch (type) {
    case 'message_start': {
      const message = objectAt(event.message, 'message_start.message');
      expectFields(message, 'message_start.message', { id: 'string', model: 'string', usage: 'object' });
      if (message.usage)
        expectFields(message.usage as Json, 'message_start.message.usage', USAGE_COUNTS, { nullable: true });
      break;
    }
    case 'content_block_start':
      expectKind(event.index, 'number', 'content_block_start.index');
      checkBlock(objectAt(event.content_block, 'content_block_start.content_block'));
      break;
    case 'content_block_delta':
      expectKind(event.index, 'number', 'content_block_delta.index');
      checkDelta(objectAt(event.delta, 'content_block_delta.delta'));
      break;
    case 'content_block_stop':
      expectKind(event.index, 'number', 'content_block_stop.index');
      break;
    case 'message_delta': {
      const delta = objectAt(event.delta, 'message_delta.delta');
      expectKind(delta.stop_reason, 'string', 'message_delta.delta.stop_reason', {
        optional: true,
        nullable: true,
      });
      expectKind(event.usage, 'object', 'message_delta.usage', { optional: true });
      if (event.usage)
        expectFields(event.usage as Json, 'message_delta.usage', USAGE_COUNTS, { nullable: true });
      break;
    }
    default:
      break;
  }
  return event;
}

function checkBlock(block: Json): void {
  const path = 'content_block_start.content_block';
  expectKind(block.type, 'string', `${path}.type`);
  switch (block.type) {
    case 'tool_use':
      expectKind(block.id, 'string', `${path}.id`);
      expectKind(block.name, 'string', `${path}.name`);
      expectKind(block.input, 'object', `${path}.input`, { optional: true });
      break;
    case 'text':
      expectKind(block.text, 'string', `${path}.text`, { optional: true });
      break;
    case 'thinking':
      expectFields(block, path, { thinking: 'string', signature: 'string' });
      break;
    case 'redacted_thinking':
      expectKind(block.data, 'string', `${path}.data`);
      break;
    default:
      break;
  }
}

const DELTA_FIELDS: Record<string, string> = {
  text_delta: 'text',
  thinking_delta: 'thinking',
  signature_delta: 'signature',
  input_json_delta: 'partial_json',
};

function checkDelta(delta: Json): void {
  expectKind(delta.type, 'string', 'content_block_delta.delta.type');
  const field = DELTA_FIELDS[delta.type as string];
  if (field) expectKind(delta[field], 'string', `content_block_delta.delta.${field}`);
}
