/**
 * kodo's message model ↔ OpenAI Chat Completions, for the client in openai.ts.
 *
 * - Requests: the system instruction is a `system` message; model turns become `assistant`
 *   messages with `tool_calls` (arguments as JSON text); function responses become `tool`
 *   messages, right after the call they answer; images become `image_url` data URLs.
 * - Streams: text and reasoning deltas (`reasoning_content` from DeepSeek/vLLM/llama.cpp,
 *   `reasoning` from OpenRouter/Ollama) are passed on as they arrive; tool-call fragments are
 *   assembled per index and released, parsed, with the finish reason; usage comes last.
 */

import type { ApiError } from '../../contracts/errors';
import type {
  Content,
  FinishReason,
  GenerateRequest,
  GenerateResponse,
  InlineData,
  Part,
  UsageMetadata,
} from '../../contracts/messages';
import { boundedArgs } from '../args-depth';
import { readShape } from '../response-shape';
import { openAIChatResponseFormat } from '../structured-output/openai';
import { pairToolCalls } from './call-pairing';
import { type ErrorFallback, errorFromEnvelope, nonEmptyText } from './error-envelope';
import { jsonSchemaTools } from './freeform';
import { modelChunk } from './model-chunk';
import { checkOpenAIChunk, checkOpenAICompletion, OPENAI_SOURCE } from './openai-shape';

export interface OpenAIBodyOptions {
  stream: boolean;
  /** The official API wants `max_completion_tokens`; most compatible servers know `max_tokens`. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /**
   * `required` forces a tool call on the request that answers a user message. Later requests of
   * the turn (answering tool results) go without it, or the model could never give its answer.
   */
  toolChoice?: 'auto' | 'required';
  /**
   * `top_k` is not part of Chat Completions: OpenAI's own API refuses it, while llama.cpp, vLLM,
   * Ollama, LM Studio and OpenRouter take it. Only those get it.
   */
  topK?: boolean;
}

type Json = Record<string, unknown>;

/** A function response as the text of a `tool` message / `tool_result` block. */
export function toolResultText(response: Record<string, unknown>): string {
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.output === 'string') return response.output;
  return JSON.stringify(response);
}

export function toOpenAIRequestBody(request: GenerateRequest, options: OpenAIBodyOptions): Json {
  const body: Json = { model: request.model, messages: toOpenAIMessages(request) };
  const tools = jsonSchemaTools(request.tools);
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parametersJsonSchema },
    }));
    if (options.toolChoice === 'required' && answersUserMessage(request)) body.tool_choice = 'required';
  }
  const config = request.config;
  if (config?.temperature !== undefined) body.temperature = config.temperature;
  if (config?.topP !== undefined) body.top_p = config.topP;
  if (config?.topK !== undefined && options.topK) body.top_k = config.topK;
  if (config?.maxOutputTokens !== undefined) body[options.maxTokensField] = config.maxOutputTokens;
  // Set only when an effort was asked for (effort.ts): OpenAI, vLLM and OpenRouter read it.
  if (config?.reasoningEffort !== undefined) body.reasoning_effort = config.reasoningEffort;
  if (config?.responseJsonSchema) body.response_format = openAIChatResponseFormat(config.responseJsonSchema);
  if (options.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

/** True when the last content is the user's own message, not tool results. */
function answersUserMessage(request: GenerateRequest): boolean {
  const last = request.contents.at(-1);
  return last?.role === 'user' && !last.parts.some((part) => part.functionResponse);
}

function toOpenAIMessages(request: GenerateRequest): Json[] {
  const messages: Json[] = [];
  if (request.systemInstruction) messages.push({ role: 'system', content: request.systemInstruction });
  for (const content of pairToolCalls(request.contents)) {
    if (content.role === 'model') {
      const message = assistantMessage(content);
      if (message) messages.push(message);
      continue;
    }
    for (const part of content.parts) {
      const response = part.functionResponse;
      if (!response) continue;
      messages.push({ role: 'tool', tool_call_id: response.id, content: toolResultText(response.response) });
    }
    const rest = content.parts.filter((part) => !part.functionResponse);
    const user = userMessage(rest);
    if (user) messages.push(user);
  }
  return messages;
}

/** Thoughts are not sent back: Chat Completions has no field for them that every server accepts. */
function assistantMessage(content: Content): Json | undefined {
  const text = content.parts
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');
  const toolCalls = content.parts.flatMap((part) =>
    part.functionCall
      ? [
          {
            id: part.functionCall.id,
            type: 'function',
            function: {
              name: part.functionCall.name,
              arguments: JSON.stringify(part.functionCall.args ?? {}),
            },
          },
        ]
      : [],
  );
  if (text === '' && toolCalls.length === 0) return undefined;
  const message: Json = { role: 'assistant', content: text === '' ? null : text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

function userMessage(parts: Part[]): Json | undefined {
  if (parts.length === 0) return undefined;
  if (parts.every((part) => typeof part.text === 'string')) {
    return { role: 'user', content: parts.map((part) => part.text).join('\n\n') };
  }
  const blocks = parts.flatMap((part): Json[] => {
    if (typeof part.text === 'string') return [{ type: 'text', text: part.text }];
    if (part.inlineData) return [mediaBlock(part.inlineData)];
    return [];
  });
  return { role: 'user', content: blocks };
}

function mediaBlock(data: InlineData): Json {
  const url = `data:${data.mimeType};base64,${data.data}`;
  if (data.mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url } };
  if (data.mimeType === 'application/pdf') {
    return { type: 'file', file: { filename: 'document.pdf', file_data: url } };
  }
  return { type: 'text', text: `[${data.mimeType} content omitted: not supported by this API]` };
}

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'STOP',
  tool_calls: 'STOP',
  function_call: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
};

/** Unknown reasons from compatible servers (`eos`, …) still mean the answer is complete. */
export function mapFinishReason(reason: string): FinishReason {
  return FINISH_REASONS[reason] ?? 'STOP';
}

export function mapOpenAIUsage(usage: unknown): UsageMetadata | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  const u = usage as {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  };
  return usageMetadata({
    input: u.prompt_tokens,
    output: u.completion_tokens,
    total: u.total_tokens,
    cached: u.prompt_tokens_details?.cached_tokens,
    reasoning: u.completion_tokens_details?.reasoning_tokens,
  });
}

/**
 * OpenAI's token counts (Chat Completions and the Responses API name them differently) as kodo's
 * usage: reasoning tokens are part of the output count there and counted as thoughts here.
 */
export function usageMetadata(counts: {
  input?: number | undefined;
  output?: number | undefined;
  total?: number | undefined;
  cached?: number | undefined;
  reasoning?: number | undefined;
}): UsageMetadata {
  const out: UsageMetadata = {};
  const reasoning = counts.reasoning ?? 0;
  if (typeof counts.input === 'number') out.promptTokenCount = counts.input;
  if (typeof counts.output === 'number') out.candidatesTokenCount = counts.output - reasoning;
  if (reasoning > 0) out.thoughtsTokenCount = reasoning;
  if (typeof counts.cached === 'number' && counts.cached > 0) out.cachedContentTokenCount = counts.cached;
  if (typeof counts.total === 'number') out.totalTokenCount = counts.total;
  return out;
}

const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_exceeded: 429,
  rate_limit_error: 429,
  insufficient_quota: 429,
  server_error: 500,
};

/**
 * llama.cpp's server answers some requests it can never serve with HTTP 500 `server_error`
 * (its C++ runtime errors): tools without `--jinja`, images or audio without a projector model.
 * Retrying them only delays the error, so they count as bad requests (docs/providers.md).
 */
const PERMANENT_SERVER_ERRORS: [RegExp, string][] = [
  [/requires --jinja flag/, ' (start llama-server with --jinja: kodo declares tools on every request)'],
  [/(image|audio|video) input is not supported|does not support multimodal/, ''],
];

function permanentServerError(body: unknown): { hint: string } | undefined {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  if (typeof message !== 'string') return undefined;
  const found = PERMANENT_SERVER_ERRORS.find(([pattern]) => pattern.test(message));
  return found ? { hint: found[1] } : undefined;
}

/** `{"error": {"message", "type", "code"}}` (also sent inside a stream) → ApiError. */
export function openAIErrorFromBody(body: unknown, fallback: ErrorFallback = {}): ApiError {
  const permanent = permanentServerError(body);
  if (permanent) {
    const message = (body as { error: { message: string } }).error.message;
    return errorFromEnvelope(
      { error: { message: `${message}${permanent.hint}` } },
      { ...fallback, status: 400 },
      (_error, fields) => ({ message: nonEmptyText(fields.message) }),
      'Error from the OpenAI-compatible API',
    );
  }
  return errorFromEnvelope(
    body,
    fallback,
    (error, fields) => {
      const code = typeof fields.code === 'number' ? fields.code : Number.NaN;
      return {
        message: nonEmptyText(fields.message) ?? (typeof error === 'string' ? error : undefined),
        status:
          (Number.isInteger(code) && code >= 400 ? code : undefined) ??
          ERROR_STATUS[String(fields.code)] ??
          ERROR_STATUS[String(fields.type)],
      };
    },
    'Error from the OpenAI-compatible API',
    isOpenAIAuthFailure,
  );
}

/** What OpenAI and compatible servers call a refused key, in `error.code` or `error.type`. */
const KEY_REFUSALS = new Set([
  'invalid_api_key',
  'authentication_error',
  'permission_error',
  'insufficient_permissions',
]);

/**
 * 401 is a refused key; a 403 only when the envelope says so (OpenAI also answers 403 for an
 * unsupported country, which no key fixes); any status whose code is `invalid_api_key`.
 */
function isOpenAIAuthFailure(status: number, fields: Record<string, unknown>): boolean {
  const named = KEY_REFUSALS.has(String(fields.code)) || KEY_REFUSALS.has(String(fields.type));
  return status === 401 || (status === 403 && named) || fields.code === 'invalid_api_key';
}

interface PendingCall {
  id?: string;
  name: string;
  args: string;
}

/** Parses assembled arguments; undefined when they are not a JSON object. */
function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    // Over-deep arguments become a marker the scheduler refuses (args-depth.ts).
    return value && typeof value === 'object' && !Array.isArray(value)
      ? boundedArgs(value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The function-call parts of finished calls, or undefined when one cannot be parsed. */
function finishedCalls(calls: PendingCall[]): Part[] | undefined {
  const parts: Part[] = [];
  for (const call of calls) {
    const args = parseArguments(call.args);
    if (!args || call.name === '') return undefined;
    parts.push({ functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args } });
  }
  return parts;
}

/**
 * Turns `chat.completion.chunk`s into kodo chunks. Feed every parsed chunk to `push`, then call
 * `end` at `[DONE]` or at the end of the body; yield whatever either returns.
 */
export class OpenAIStreamConverter {
  private readonly calls: PendingCall[] = [];
  private readonly byIndex = new Map<number, PendingCall>();
  private finishReason: string | undefined;
  private usage: UsageMetadata | undefined;
  private meta: Partial<GenerateResponse> = {};
  private ended = false;

  push(chunk: unknown): GenerateResponse[] {
    const c = readShape(OPENAI_SOURCE, () => checkOpenAIChunk(chunk));
    if (c.error) throw openAIErrorFromBody(c);
    if (typeof c.model === 'string') this.meta.modelVersion = c.model;
    if (typeof c.id === 'string') this.meta.responseId = c.id;
    const usage = mapOpenAIUsage(c.usage);
    if (usage) this.usage = usage;
    const choices = Array.isArray(c.choices) ? (c.choices as Json[]) : [];
    const choice = choices.find((entry) => (entry.index ?? 0) === 0);
    if (!choice) return [];
    const delta = (choice.delta ?? {}) as Json;
    const parts: Part[] = [];
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') parts.push({ text: reasoning, thought: true });
    if (typeof delta.content === 'string' && delta.content !== '') parts.push({ text: delta.content });
    if (typeof delta.refusal === 'string' && delta.refusal !== '') parts.push({ text: delta.refusal });
    if (Array.isArray(delta.tool_calls))
      for (const call of delta.tool_calls) this.addCallFragment(call as Json);
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    return parts.length > 0 ? [modelChunk(parts, { ...this.meta })] : [];
  }

  /**
   * The closing chunk: the assembled calls, the finish reason and usage. Nothing when the server
   * never sent a finish reason (the stream is then incomplete, and Chat retries it).
   */
  end(): GenerateResponse[] {
    if (this.ended) return [];
    this.ended = true;
    if (this.finishReason === undefined) {
      return this.usage ? [{ usageMetadata: this.usage }] : [];
    }
    const calls = finishedCalls(this.calls);
    const finish: FinishReason = calls ? mapFinishReason(this.finishReason) : 'MALFORMED_FUNCTION_CALL';
    const extra: Partial<GenerateResponse> = { ...this.meta };
    if (this.usage) extra.usageMetadata = this.usage;
    return [modelChunk(calls ?? [], extra, finish)];
  }

  /**
   * Fragments carry an `index`; a few servers (older Ollama) omit it and send each call whole,
   * so a new id opens a new call and a fragment without either continues the last one.
   */
  private addCallFragment(fragment: Json): void {
    const fn = (fragment.function ?? {}) as Json;
    const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : undefined;
    let call: PendingCall | undefined;
    if (typeof fragment.index === 'number') {
      call = this.byIndex.get(fragment.index);
      if (!call) {
        call = { name: '', args: '' };
        this.byIndex.set(fragment.index, call);
        this.calls.push(call);
      }
    } else {
      const last = this.calls.at(-1);
      if (last && (id === undefined || id === last.id)) call = last;
      else {
        call = { name: '', args: '' };
        this.calls.push(call);
      }
    }
    if (id && !call.id) call.id = id;
    if (typeof fn.name === 'string') call.name += fn.name;
    if (typeof fn.arguments === 'string') call.args += fn.arguments;
    else if (fn.arguments && typeof fn.arguments === 'object') call.args += JSON.stringify(fn.arguments);
  }
}

/** A non-streamed `chat.completion` → one kodo response. */
export function openAICompletionToResponse(completion: unknown): GenerateResponse {
  const c = readShape(OPENAI_SOURCE, () => checkOpenAICompletion(completion));
  if (c.error) throw openAIErrorFromBody(c);
  const choices = Array.isArray(c.choices) ? (c.choices as Json[]) : [];
  const choice = choices.find((entry) => (entry.index ?? 0) === 0) ?? {};
  const message = (choice.message ?? {}) as Json;
  const converter = new OpenAIStreamConverter();
  // A whole message is one big delta: reuse the stream path so both read fields the same way.
  const head = converter.push({
    id: c.id,
    model: c.model,
    usage: c.usage,
    choices: [
      { index: 0, delta: { ...message, tool_calls: undefined }, finish_reason: choice.finish_reason },
    ],
  });
  const toolCalls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
  converter.push({
    choices: [{ index: 0, delta: { tool_calls: toolCalls.map((call, index) => ({ ...call, index })) } }],
  });
  const [tail] = converter.end();
  const parts = [
    ...head.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []),
    ...(tail?.candidates?.[0]?.content?.parts ?? []),
  ];
  const response = modelChunk(parts, {}, tail?.candidates?.[0]?.finishReason ?? 'STOP');
  if (tail?.usageMetadata) response.usageMetadata = tail.usageMetadata;
  if (typeof c.model === 'string') response.modelVersion = c.model;
  if (typeof c.id === 'string') response.responseId = c.id;
  return response;
}
