/**
 * A scripted stand-in for OpenAI's Responses API on 127.0.0.1 (`POST /v1/responses`), speaking
 * the real wire protocol so kodo's client and the official `openai` SDK can both be tested
 * against it: with `"stream": true`, one `event: <type>\ndata: <json>\n\n` SSE event per
 * Responses stream event (no `[DONE]`); without, the whole `response` object.
 *
 * The reply builders produce what OpenAI's reasoning models send: reasoning items with summary
 * parts and `encrypted_content` (requested with `include: ["reasoning.encrypted_content"]`),
 * assistant messages, function calls and custom (freeform) tool calls such as `apply_patch`.
 */
import { OPENAI_DEFAULT_MESSAGES, openAIErrorBody, openAIKeyCheck } from './openai-mock';
import type { WireObject } from './scripted-server';
import {
  argumentFragments,
  type MockToolCall,
  type ScriptedMock,
  type ScriptedMockOptions,
  startScriptedMock,
} from './sse-mock-server';

export type OpenAIResponsesMock = ScriptedMock;

export function startOpenAIResponsesMock(options: ScriptedMockOptions = {}): Promise<OpenAIResponsesMock> {
  return startScriptedMock(
    {
      name: 'openai-responses-mock',
      urlSuffix: '/v1',
      isEndpoint: (path) => path === '/v1/responses',
      checkHeaders: openAIKeyCheck(options.apiKey),
      errorBody: openAIErrorBody,
      defaultMessages: OPENAI_DEFAULT_MESSAGES,
      frame: (event) =>
        typeof event.type === 'string'
          ? `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
          : `data: ${JSON.stringify(event)}\n\n`,
      malformedEvent:
        'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","del\n\n',
    },
    options,
  );
}

/** A reasoning item of the reply: its summary paragraphs and its encrypted content. */
export interface ResponsesReasoning {
  summary: string[];
  encrypted: string;
  id?: string;
}

/** What one reply holds, in order: reasoning, then text, then calls. */
export interface ResponsesReply {
  reasoning?: ResponsesReasoning;
  text?: string | string[];
  calls?: MockToolCall[];
  /** Freeform tool calls (`custom_tool_call`): the input is plain text (an apply_patch patch). */
  customCalls?: { name: string; input: string; id?: string }[];
  usage?: WireObject;
  model?: string;
  /** `response.incomplete` with this reason instead of `response.completed`. */
  incomplete?: 'max_output_tokens' | 'content_filter';
}

const DEFAULT_USAGE = {
  input_tokens: 12,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 17,
};

/** The stream events of one reply, as the API sends them. */
export function responsesReply(reply: ResponsesReply): WireObject[] {
  const model = reply.model ?? 'gpt-mock';
  const base = { id: 'resp_mock', object: 'response', created_at: 1_760_000_000, model };
  const events: WireObject[] = [];
  let sequence = 0;
  const push = (event: WireObject) => events.push({ ...event, sequence_number: sequence++ });
  const output: WireObject[] = [];
  push({ type: 'response.created', response: { ...base, status: 'in_progress', output: [] } });
  push({ type: 'response.in_progress', response: { ...base, status: 'in_progress', output: [] } });
  const added = (item: WireObject) =>
    push({ type: 'response.output_item.added', output_index: output.length, item });
  const done = (item: WireObject) => {
    push({ type: 'response.output_item.done', output_index: output.length, item });
    output.push(item);
  };
  if (reply.reasoning) {
    const id = reply.reasoning.id ?? 'rs_mock';
    added({ id, type: 'reasoning', summary: [] });
    for (const [index, text] of reply.reasoning.summary.entries()) {
      const where = { item_id: id, output_index: output.length, summary_index: index };
      push({
        type: 'response.reasoning_summary_part.added',
        ...where,
        part: { type: 'summary_text', text: '' },
      });
      push({ type: 'response.reasoning_summary_text.delta', ...where, delta: text });
      push({ type: 'response.reasoning_summary_text.done', ...where, text });
      push({ type: 'response.reasoning_summary_part.done', ...where, part: { type: 'summary_text', text } });
    }
    done({
      id,
      type: 'reasoning',
      summary: reply.reasoning.summary.map((text) => ({ type: 'summary_text', text })),
      encrypted_content: reply.reasoning.encrypted,
    });
  }
  if (reply.text !== undefined) {
    const pieces = typeof reply.text === 'string' ? [reply.text] : reply.text;
    const id = 'msg_mock';
    added({ id, type: 'message', status: 'in_progress', role: 'assistant', content: [] });
    const where = { item_id: id, output_index: output.length, content_index: 0 };
    push({
      type: 'response.content_part.added',
      ...where,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    for (const delta of pieces) push({ type: 'response.output_text.delta', ...where, delta, logprobs: [] });
    const text = pieces.join('');
    push({ type: 'response.output_text.done', ...where, text, logprobs: [] });
    const part = { type: 'output_text', text, annotations: [], logprobs: [] };
    push({ type: 'response.content_part.done', ...where, part });
    done({ id, type: 'message', status: 'completed', role: 'assistant', content: [part] });
  }
  for (const [index, call] of (reply.calls ?? []).entries()) {
    const id = `fc_mock_${index}`;
    const callId = call.id ?? `call_mock_${index}`;
    const head = { id, type: 'function_call', call_id: callId, name: call.name };
    added({ ...head, arguments: '', status: 'in_progress' });
    for (const delta of argumentFragments(call.args)) {
      push({
        type: 'response.function_call_arguments.delta',
        item_id: id,
        output_index: output.length,
        delta,
      });
    }
    const args = JSON.stringify(call.args);
    push({
      type: 'response.function_call_arguments.done',
      item_id: id,
      output_index: output.length,
      arguments: args,
    });
    done({ ...head, arguments: args, status: 'completed' });
  }
  for (const [index, call] of (reply.customCalls ?? []).entries()) {
    const id = `ctc_mock_${index}`;
    const callId = call.id ?? `call_custom_${index}`;
    const head = { id, type: 'custom_tool_call', call_id: callId, name: call.name };
    added({ ...head, input: '' });
    for (let at = 0; at < call.input.length; at += 40) {
      const delta = call.input.slice(at, at + 40);
      push({
        type: 'response.custom_tool_call_input.delta',
        item_id: id,
        output_index: output.length,
        delta,
      });
    }
    push({
      type: 'response.custom_tool_call_input.done',
      item_id: id,
      output_index: output.length,
      input: call.input,
    });
    done({ ...head, input: call.input });
  }
  const usage = reply.usage ?? DEFAULT_USAGE;
  if (reply.incomplete) {
    push({
      type: 'response.incomplete',
      response: {
        ...base,
        status: 'incomplete',
        incomplete_details: { reason: reply.incomplete },
        output,
        usage,
      },
    });
  } else {
    push({ type: 'response.completed', response: { ...base, status: 'completed', output, usage } });
  }
  return events;
}

/** A streamed text answer, optionally after reasoning. */
export function responsesTextReply(
  text: string | string[],
  options: Omit<ResponsesReply, 'text' | 'calls' | 'customCalls'> = {},
): WireObject[] {
  return responsesReply({ ...options, text });
}

/** Streamed function calls, optionally after reasoning. */
export function responsesToolCallsReply(
  calls: MockToolCall[],
  options: Omit<ResponsesReply, 'calls'> = {},
): WireObject[] {
  return responsesReply({ ...options, calls });
}
