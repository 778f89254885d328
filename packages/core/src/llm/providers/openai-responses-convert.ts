/**
 * kodo's message model ↔ OpenAI's Responses API (`POST /v1/responses`), the wire of OpenAI's own
 * models, as Codex speaks it:
 *
 * - Requests are stateless (`store: false`): the whole conversation goes in `input` every time,
 *   and reasoning carries across tool calls as encrypted reasoning items, asked for with
 *   `include: ["reasoning.encrypted_content"]` and sent back unchanged in the next request.
 * - A reasoning item is kept in kodo's history as a thought part: its summary text (shown as the
 *   model's thoughts), then an empty thought part whose `thoughtSignature` is
 *   `"openai-reasoning:<encrypted_content>"`. The prefix keeps it away from other providers.
 * - Freeform tools (`apply_patch`) are declared as `custom` tools with their grammar; the model's
 *   `custom_tool_call` becomes `functionCall {name, args: {input}}` and its result goes back as a
 *   `custom_tool_call_output`. Function tools work as in Chat Completions.
 */
import type {
  Content,
  FinishReason,
  FunctionDeclaration,
  GenerateRequest,
  GenerateResponse,
  Part,
  UsageMetadata,
} from '../../contracts/messages';
import { boundedArgs } from '../args-depth';
import { expectFields, objectAt, readShape } from '../response-shape';
import { openAIResponsesTextFormat } from '../structured-output/openai';
import { pairToolCalls } from './call-pairing';
import { modelChunk } from './model-chunk';
import { openAIErrorFromBody, toolResultText, usageMetadata } from './openai-convert';
import { isOpenAIReasoningSignature, OPENAI_REASONING_PREFIX } from './openai-signatures';

type Json = Record<string, unknown>;

export interface ResponsesBodyOptions {
  stream: boolean;
}

export function toResponsesRequestBody(request: GenerateRequest, options: ResponsesBodyOptions): Json {
  const freeform = new Set((request.tools ?? []).filter((tool) => tool.freeform).map((tool) => tool.name));
  const body: Json = { model: request.model };
  if (request.systemInstruction) body.instructions = request.systemInstruction;
  body.input = toResponsesInput(request.contents, freeform);
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(toResponsesTool);
    body.tool_choice = 'auto';
    body.parallel_tool_calls = true;
  }
  const config = request.config ?? {};
  if (config.reasoningEffort !== undefined) {
    // `summary: auto` makes the model's reasoning visible as thoughts (Codex asks for it too).
    body.reasoning = { effort: config.reasoningEffort, summary: 'auto' };
  }
  body.store = false;
  // Encrypted reasoning comes back only for models that reason; asking others is refused.
  if (config.reasoningEffort !== undefined) body.include = ['reasoning.encrypted_content'];
  if (config.cacheKey) body.prompt_cache_key = config.cacheKey;
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) body.max_output_tokens = config.maxOutputTokens;
  // `--json-schema`: the final answer as JSON matching the schema (structured-output/openai.ts).
  if (config.responseJsonSchema) body.text = openAIResponsesTextFormat(config.responseJsonSchema);
  if (options.stream) body.stream = true;
  return body;
}

function toResponsesTool(tool: FunctionDeclaration): Json {
  if (tool.freeform) {
    return {
      type: 'custom',
      name: tool.name,
      description: tool.description,
      format: { type: 'grammar', syntax: tool.freeform.syntax, definition: tool.freeform.definition },
    };
  }
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parametersJsonSchema,
    strict: false,
  };
}

function toResponsesInput(contents: Content[], freeform: Set<string>): Json[] {
  const items: Json[] = [];
  // Which calls were custom ones: their results go back as custom outputs.
  const customCalls = new Set<string>();
  for (const content of pairToolCalls(contents)) {
    if (content.role === 'model') {
      items.push(...modelItems(content.parts, freeform, customCalls));
      continue;
    }
    for (const part of content.parts) {
      const response = part.functionResponse;
      if (!response) continue;
      const callId = response.id ?? '';
      items.push({
        type: customCalls.has(callId) ? 'custom_tool_call_output' : 'function_call_output',
        call_id: callId,
        output: toolResultText(response.response),
      });
    }
    const blocks = userBlocks(content.parts.filter((part) => !part.functionResponse));
    if (blocks.length > 0) items.push({ type: 'message', role: 'user', content: blocks });
  }
  return items;
}

function modelItems(parts: Part[], freeform: Set<string>, customCalls: Set<string>): Json[] {
  const items: Json[] = [];
  let thinking = '';
  let text = '';
  const flushText = () => {
    if (text !== '')
      items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
    text = '';
  };
  for (const part of parts) {
    if (part.thought) {
      thinking += part.text ?? '';
      if (isOpenAIReasoningSignature(part.thoughtSignature)) {
        flushText();
        items.push({
          type: 'reasoning',
          summary: thinking === '' ? [] : [{ type: 'summary_text', text: thinking }],
          encrypted_content: (part.thoughtSignature as string).slice(OPENAI_REASONING_PREFIX.length),
        });
        thinking = '';
      }
      continue;
    }
    // Reasoning without its encrypted content cannot be sent back (another provider's thoughts).
    thinking = '';
    if (part.functionCall) {
      flushText();
      const { id, name, args } = part.functionCall;
      const callId = id ?? '';
      if (freeform.has(name) && typeof args.input === 'string') {
        customCalls.add(callId);
        items.push({ type: 'custom_tool_call', call_id: callId, name, input: args.input });
      } else {
        items.push({ type: 'function_call', call_id: callId, name, arguments: JSON.stringify(args ?? {}) });
      }
    } else if (typeof part.text === 'string') {
      text += part.text;
    }
  }
  flushText();
  return items;
}

function userBlocks(parts: Part[]): Json[] {
  return parts.flatMap((part): Json[] => {
    if (typeof part.text === 'string')
      return part.text === '' ? [] : [{ type: 'input_text', text: part.text }];
    const data = part.inlineData;
    if (!data) return [];
    const url = `data:${data.mimeType};base64,${data.data}`;
    if (data.mimeType.startsWith('image/')) return [{ type: 'input_image', image_url: url, detail: 'auto' }];
    if (data.mimeType === 'application/pdf') {
      return [{ type: 'input_file', filename: 'document.pdf', file_data: url }];
    }
    return [{ type: 'input_text', text: `[${data.mimeType} content omitted: not supported by this API]` }];
  });
}

// Responses → kodo ------------------------------------------------------------------------------

export function mapResponsesUsage(usage: unknown): UsageMetadata | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  const u = usage as {
    input_tokens?: number;
    output_tokens?: number;
    total_tokens?: number;
    input_tokens_details?: { cached_tokens?: number } | null;
    output_tokens_details?: { reasoning_tokens?: number } | null;
  };
  return usageMetadata({
    input: u.input_tokens,
    output: u.output_tokens,
    total: u.total_tokens,
    cached: u.input_tokens_details?.cached_tokens,
    reasoning: u.output_tokens_details?.reasoning_tokens,
  });
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? boundedArgs(value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const RESPONSES_SOURCE = "OpenAI's Responses API";

/**
 * What kodo reads of one stream event, checked before it is trusted (response-shape.ts): a
 * wrong type is named (`item.arguments must be a string (got object)`) instead of a call being
 * skipped or run with no arguments.
 */
export function checkResponsesEvent(value: unknown): Json {
  const event = objectAt(value, 'a stream event');
  expectFields(event, '', { type: 'string', delta: 'string', item: 'object', response: 'object' });
  if (event.item) {
    expectFields(
      event.item as Json,
      'item',
      {
        type: 'string',
        call_id: 'string',
        name: 'string',
        arguments: 'string',
        input: 'string',
        encrypted_content: 'string',
      },
      { nullable: true },
    );
  }
  if (event.response) {
    expectFields(
      event.response as Json,
      'response',
      { usage: 'object', incomplete_details: 'object' },
      { nullable: true },
    );
  }
  return event;
}

/**
 * Turns Responses stream events into kodo chunks: text and reasoning-summary deltas as they
 * arrive; calls and a reasoning item's encrypted content when their item is done; the finish
 * reason and usage at `response.completed` (or `response.incomplete`).
 */
export class ResponsesStreamConverter {
  private meta: Partial<GenerateResponse> = {};
  private finished = false;
  private malformed = false;
  /** Summary parts of one reasoning item are separate paragraphs. */
  private summaryIndex = new Map<string, number>();

  push(event: unknown): GenerateResponse[] {
    const e = readShape(RESPONSES_SOURCE, () => checkResponsesEvent(event));
    switch (e.type) {
      case 'response.created':
      case 'response.in_progress':
        this.readResponseMeta(e.response);
        return [];
      case 'response.output_text.delta':
        return typeof e.delta === 'string' && e.delta !== '' ? [this.chunk([{ text: e.delta }])] : [];
      case 'response.refusal.delta':
        return typeof e.delta === 'string' && e.delta !== '' ? [this.chunk([{ text: e.delta }])] : [];
      case 'response.reasoning_summary_text.delta':
        return this.summaryDelta(e);
      case 'response.output_item.done':
        return this.itemDone((e.item ?? {}) as Json);
      case 'response.completed':
      case 'response.incomplete':
        return this.completed(e);
      case 'response.failed':
        throw openAIErrorFromBody({
          error: ((e.response ?? {}) as Json).error ?? { message: 'The response failed.' },
        });
      case 'error':
        throw openAIErrorFromBody({ error: { message: e.message, code: e.code, type: e.code } });
      default:
        return [];
    }
  }

  /** Nothing more to say when the stream ended without `response.completed`: Chat retries it. */
  end(): GenerateResponse[] {
    return [];
  }

  private summaryDelta(e: Json): GenerateResponse[] {
    if (typeof e.delta !== 'string' || e.delta === '') return [];
    const itemId = String(e.item_id ?? '');
    const index = typeof e.summary_index === 'number' ? e.summary_index : 0;
    const previous = this.summaryIndex.get(itemId);
    this.summaryIndex.set(itemId, index);
    const text = previous !== undefined && previous !== index ? `\n\n${e.delta}` : e.delta;
    return [this.chunk([{ text, thought: true }])];
  }

  private itemDone(item: Json): GenerateResponse[] {
    switch (item.type) {
      case 'reasoning': {
        if (typeof item.encrypted_content !== 'string' || item.encrypted_content === '') return [];
        const signature = `${OPENAI_REASONING_PREFIX}${item.encrypted_content}`;
        return [this.chunk([{ text: '', thought: true, thoughtSignature: signature }])];
      }
      case 'function_call': {
        const args = parseArguments(typeof item.arguments === 'string' ? item.arguments : '');
        if (!args || typeof item.name !== 'string' || item.name === '') {
          this.malformed = true;
          return [];
        }
        return [
          this.chunk([
            { functionCall: { id: String(item.call_id ?? item.id ?? ''), name: item.name, args } },
          ]),
        ];
      }
      case 'custom_tool_call': {
        if (typeof item.name !== 'string' || typeof item.input !== 'string') {
          this.malformed = true;
          return [];
        }
        const call = {
          id: String(item.call_id ?? item.id ?? ''),
          name: item.name,
          args: { input: item.input },
        };
        return [this.chunk([{ functionCall: call }])];
      }
      default:
        return [];
    }
  }

  private completed(e: Json): GenerateResponse[] {
    if (this.finished) return [];
    this.finished = true;
    const response = (e.response ?? {}) as Json;
    this.readResponseMeta(response);
    const usage = mapResponsesUsage(response.usage);
    const incomplete = ((response.incomplete_details ?? {}) as Json).reason;
    let finish: FinishReason = 'STOP';
    if (this.malformed) finish = 'MALFORMED_FUNCTION_CALL';
    else if (incomplete === 'max_output_tokens') finish = 'MAX_TOKENS';
    else if (incomplete === 'content_filter') finish = 'SAFETY';
    return [modelChunk([], { ...this.meta, ...(usage ? { usageMetadata: usage } : {}) }, finish)];
  }

  private readResponseMeta(response: unknown): void {
    if (!response || typeof response !== 'object') return;
    const r = response as Json;
    if (typeof r.model === 'string') this.meta.modelVersion = r.model;
    if (typeof r.id === 'string') this.meta.responseId = r.id;
  }

  private chunk(parts: Part[]): GenerateResponse {
    return modelChunk(parts, { ...this.meta });
  }
}
