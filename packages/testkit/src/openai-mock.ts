/**
 * A scripted stand-in for the OpenAI Chat Completions API on 127.0.0.1, speaking the real wire
 * protocol so kodo's lean client and the official `openai` SDK can both be tested against it:
 *
 * - `POST /v1/chat/completions` with `"stream": true` → `text/event-stream`, one
 *   `data: <chunk>\n\n` event per `chat.completion.chunk`, then `data: [DONE]\n\n`;
 * - without `stream` → one `chat.completion` JSON body.
 *
 * Script steps and faults are those of every mock (see scripted-server.ts). `url` includes
 * `/v1`, as `OPENAI_BASE_URL` does.
 */

import type { IncomingHttpHeaders } from 'node:http';
import type { MockAnswer, WireObject } from './scripted-server';
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

export type OpenAIMock = ScriptedMock;
export type OpenAIMockStep = MockStep;
export type OpenAIMockRequest = MockRequest;
/** `apiKey`: requests must carry `Authorization: Bearer <apiKey>`, as the real API. */
export type OpenAIMockOptions = ScriptedMockOptions;

const ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};

const DEFAULT_MESSAGES: Record<number, string> = {
  429: 'Rate limit reached for requests. Please try again in 7s.',
  500: 'The server had an error while processing your request. Sorry about that!',
  503: 'The engine is currently overloaded, please try again later.',
};

/** OpenAI's error envelope for a status fault (Chat Completions and the Responses API alike). */
export function openAIErrorBody(fault: MockStatusFault, message: string): string {
  const [type, code] = ERROR_TYPES[fault.status] ?? ['server_error', null];
  const error = { message, type: fault.errorType ?? type, param: null, code: fault.code ?? code };
  return JSON.stringify({ error }, null, 2);
}

/** The key check of both OpenAI endpoints: `Authorization: Bearer <key>`, refused as the API does. */
export function openAIKeyCheck(apiKey: string | undefined) {
  return (headers: IncomingHttpHeaders): MockAnswer | undefined => {
    if (apiKey === undefined) return undefined;
    const auth = headers.authorization;
    if (auth === `Bearer ${apiKey}`) return undefined;
    const message = auth
      ? 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.'
      : "You didn't provide an API key.";
    return { status: 401, body: openAIErrorBody({ fault: 'status', status: 401 }, message) };
  };
}

export const OPENAI_DEFAULT_MESSAGES = DEFAULT_MESSAGES;

export function startOpenAIMock(options: OpenAIMockOptions = {}): Promise<OpenAIMock> {
  return startScriptedMock(
    {
      name: 'openai-mock',
      urlSuffix: '/v1',
      isEndpoint: (path) => path === '/v1/chat/completions',
      checkHeaders: openAIKeyCheck(options.apiKey),
      errorBody: openAIErrorBody,
      defaultMessages: DEFAULT_MESSAGES,
      frame: (chunk) => `data: ${JSON.stringify(chunk)}\n\n`,
      terminator: 'data: [DONE]\n\n',
      malformedEvent: 'data: {"id":"chatcmpl-cut","choices":[{"index":0,"delta":{"content":"cu\n\n',
    },
    options,
  );
}

export interface OpenAIReplyOptions {
  model?: string;
  id?: string;
  /** `finish_reason` of the last choice chunk; default `stop` (`tool_calls` for calls). */
  finishReason?: string;
  /** The usage chunk sent last (`stream_options.include_usage`); default small counts. */
  usage?: WireObject | null;
  /** Reasoning text sent before the answer, in `reasoning_content` deltas. */
  reasoning?: string | string[];
  /** The delta field carrying reasoning: `reasoning_content` (default) or `reasoning`. */
  reasoningField?: 'reasoning_content' | 'reasoning';
}

const DEFAULT_USAGE = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };

/** One `chat.completion.chunk` with a single choice. */
export function openaiChunk(
  delta: WireObject,
  options: { finishReason?: string | null; model?: string; id?: string } = {},
): WireObject {
  return {
    id: options.id ?? 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: options.model ?? 'gpt-mock',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: options.finishReason ?? null }],
  };
}

function envelope(options: OpenAIReplyOptions, body: WireObject[], finishReason: string): WireObject[] {
  const meta = {
    ...(options.model ? { model: options.model } : {}),
    ...(options.id ? { id: options.id } : {}),
  };
  const chunks = [openaiChunk({ role: 'assistant', content: '', refusal: null }, meta)];
  const reasoning = options.reasoning === undefined ? [] : ([] as string[]).concat(options.reasoning);
  for (const piece of reasoning)
    chunks.push(openaiChunk({ [options.reasoningField ?? 'reasoning_content']: piece }, meta));
  chunks.push(...body.map((delta) => openaiChunk(delta, meta)));
  chunks.push(openaiChunk({}, { ...meta, finishReason: options.finishReason ?? finishReason }));
  if (options.usage !== null) {
    chunks.push({ ...openaiChunk({}, meta), choices: [], usage: options.usage ?? DEFAULT_USAGE });
  }
  return chunks;
}

/** A streamed text answer: one content delta per piece. */
export function openaiTextReply(text: string | string[], options: OpenAIReplyOptions = {}): WireObject[] {
  const pieces = typeof text === 'string' ? [text] : text;
  return envelope(
    options,
    pieces.map((content) => ({ content })),
    'stop',
  );
}

/**
 * Streamed tool calls as the API sends them: per call, a first delta with index, id and name,
 * then the JSON arguments in `argsChunkSize`-character fragments (default 7).
 */
export function openaiToolCallsReply(
  calls: MockToolCall[],
  options: OpenAIReplyOptions & { text?: string; argsChunkSize?: number } = {},
): WireObject[] {
  const deltas: WireObject[] = options.text ? [{ content: options.text }] : [];
  for (const [index, call] of calls.entries()) {
    const id = call.id ?? `call_mock_${index}`;
    deltas.push({
      tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const fragment of argumentFragments(call.args, options.argsChunkSize)) {
      deltas.push({ tool_calls: [{ index, function: { arguments: fragment } }] });
    }
  }
  return envelope(options, deltas, 'tool_calls');
}

/** A non-streamed `chat.completion`. */
export function openaiCompletion(
  reply: { text?: string; toolCalls?: MockToolCall[]; reasoning?: string },
  options: OpenAIReplyOptions = {},
): WireObject {
  const message: WireObject = { role: 'assistant', content: reply.text ?? null, refusal: null };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (reply.toolCalls?.length) {
    message.tool_calls = reply.toolCalls.map((call, index) => ({
      id: call.id ?? `call_mock_${index}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
  }
  return {
    id: options.id ?? 'chatcmpl-mock',
    object: 'chat.completion',
    created: 1_760_000_000,
    model: options.model ?? 'gpt-mock',
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: options.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop'),
      },
    ],
    usage: options.usage ?? DEFAULT_USAGE,
  };
}
