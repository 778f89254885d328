/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, speaking the real wire
 * protocol (kodo's lean client and `@anthropic-ai/sdk` both run against it):
 *
 * - `POST /v1/messages` with `"stream": true` → `text/event-stream`, each event framed as
 *   `event: <type>\ndata: <json>\n\n` (`message_start`, `content_block_*`, `message_delta`,
 *   `message_stop`, `ping`, `error`);
 * - without `stream` → one Message JSON body.
 *
 * Requests must carry `anthropic-version`, and, when `apiKey` is set, the key in `x-api-key` or
 * as `Authorization: Bearer` (newer SDKs send the latter). Script steps and
 * faults are those of every mock (see scripted-server.ts). `url` has no `/v1`, as
 * `ANTHROPIC_BASE_URL`.
 */

import type { WireObject } from './scripted-server';
import {
  argumentFragments,
  type MockRequest,
  type MockStatusFault,
  type MockStep,
  type MockToolCall,
  type ScriptedMock,
  type ScriptedMockOptions,
  startScriptedMock,
} from './sse-mock-server';

export type AnthropicMock = ScriptedMock;
export type AnthropicMockStep = MockStep;
export type AnthropicMockRequest = MockRequest;
export type AnthropicMockOptions = ScriptedMockOptions;
export type AnthropicMockToolCall = MockToolCall;

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const DEFAULT_MESSAGES: Record<number, string> = {
  429: 'Number of request tokens has exceeded your per-minute rate limit.',
  500: 'Internal server error',
  529: 'Overloaded',
};

function errorBody(fault: MockStatusFault, message: string): string {
  const type = fault.errorType ?? ERROR_TYPES[fault.status] ?? 'api_error';
  return JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_mock' });
}

export function startAnthropicMock(options: AnthropicMockOptions = {}): Promise<AnthropicMock> {
  return startScriptedMock(
    {
      name: 'anthropic-mock',
      urlSuffix: '',
      isEndpoint: (path) => path === '/v1/messages',
      checkHeaders(headers) {
        const bearer = headers.authorization === `Bearer ${options.apiKey}`;
        if (options.apiKey !== undefined && headers['x-api-key'] !== options.apiKey && !bearer) {
          const body = errorBody({ fault: 'status', status: 401 }, 'invalid x-api-key');
          return { status: 401, body };
        }
        if (!headers['anthropic-version']) {
          const message = 'anthropic-version: header is required';
          return { status: 400, body: errorBody({ fault: 'status', status: 400 }, message) };
        }
        return undefined;
      },
      errorBody,
      defaultMessages: DEFAULT_MESSAGES,
      frame: (event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`,
      malformedEvent:
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cu\n\n',
    },
    options,
  );
}

export interface AnthropicReplyOptions {
  model?: string;
  id?: string;
  /** `stop_reason` in `message_delta`; default `end_turn` (`tool_use` for calls). */
  stopReason?: string;
  /** `usage` of `message_start`; `output_tokens` goes to `message_delta`. */
  usage?: WireObject;
  /** A thinking block before the answer: its text pieces and signature. */
  thinking?: { text: string | string[]; signature: string };
  /** Send a redacted_thinking block with this data first. */
  redactedThinking?: string;
}

const DEFAULT_USAGE = {
  input_tokens: 12,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: 5,
};

type Block = { start: WireObject; deltas: WireObject[] };

function envelope(options: AnthropicReplyOptions, blocks: Block[], stopReason: string): WireObject[] {
  const usage = { ...DEFAULT_USAGE, ...options.usage };
  const { output_tokens: outputTokens, ...startUsage } = usage;
  const events: WireObject[] = [
    {
      type: 'message_start',
      message: {
        id: options.id ?? 'msg_mock',
        type: 'message',
        role: 'assistant',
        model: options.model ?? 'claude-mock',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...startUsage, output_tokens: 1 },
      },
    },
    { type: 'ping' },
  ];
  const all: Block[] = [];
  if (options.redactedThinking !== undefined) {
    all.push({ start: { type: 'redacted_thinking', data: options.redactedThinking }, deltas: [] });
  }
  if (options.thinking) {
    const pieces = ([] as string[]).concat(options.thinking.text);
    all.push({
      start: { type: 'thinking', thinking: '', signature: '' },
      deltas: [
        ...pieces.map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature: options.thinking.signature },
      ],
    });
  }
  all.push(...blocks);
  for (const [index, block] of all.entries()) {
    events.push({ type: 'content_block_start', index, content_block: block.start });
    for (const delta of block.deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
  }
  events.push({
    type: 'message_delta',
    delta: { stop_reason: options.stopReason ?? stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
  events.push({ type: 'message_stop' });
  return events;
}

/** A streamed text answer: one text delta per piece. */
export function anthropicTextReply(
  text: string | string[],
  options: AnthropicReplyOptions = {},
): WireObject[] {
  const pieces = typeof text === 'string' ? [text] : text;
  const blocks =
    pieces.length === 0
      ? []
      : [{ start: { type: 'text', text: '' }, deltas: pieces.map((t) => ({ type: 'text_delta', text: t })) }];
  return envelope(options, blocks, 'end_turn');
}

/** Streamed tool_use blocks, input as `input_json_delta` fragments of `argsChunkSize` characters. */
export function anthropicToolUseReply(
  calls: AnthropicMockToolCall[],
  options: AnthropicReplyOptions & { text?: string; argsChunkSize?: number } = {},
): WireObject[] {
  const blocks: Block[] = options.text
    ? [{ start: { type: 'text', text: '' }, deltas: [{ type: 'text_delta', text: options.text }] }]
    : [];
  for (const [index, call] of calls.entries()) {
    const fragments = ['', ...argumentFragments(call.args, options.argsChunkSize)];
    const deltas = fragments.map((partial_json) => ({ type: 'input_json_delta', partial_json }));
    blocks.push({
      start: { type: 'tool_use', id: call.id ?? `toolu_mock_${index}`, name: call.name, input: {} },
      deltas,
    });
  }
  return envelope(options, blocks, 'tool_use');
}

/** An `error` event as the API sends mid-stream (e.g. `overloaded_error`). */
export function anthropicErrorEvent(type = 'overloaded_error', message = 'Overloaded'): WireObject {
  return { type: 'error', error: { type, message } };
}

/**
 * An answer that used Anthropic's server-side web search: a `server_tool_use` block, its
 * `web_search_tool_result` with the results, then the text written from them.
 */
export function anthropicWebSearchReply(
  search: { query: string; results: { title: string; url: string }[]; text: string },
  options: AnthropicReplyOptions = {},
): WireObject[] {
  const id = 'srvtoolu_mock_0';
  return envelope(
    options,
    [
      {
        start: { type: 'server_tool_use', id, name: 'web_search', input: {} },
        deltas: [{ type: 'input_json_delta', partial_json: JSON.stringify({ query: search.query }) }],
      },
      {
        start: {
          type: 'web_search_tool_result',
          tool_use_id: id,
          content: search.results.map((result) => ({
            type: 'web_search_result',
            url: result.url,
            title: result.title,
            encrypted_content: 'opaque',
            page_age: null,
          })),
        },
        deltas: [],
      },
      { start: { type: 'text', text: '' }, deltas: [{ type: 'text_delta', text: search.text }] },
    ],
    'end_turn',
  );
}
