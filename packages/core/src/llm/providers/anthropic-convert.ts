/**
 * kodo's message model ↔ the Anthropic Messages API, for the client in anthropic.ts.
 *
 * - Requests: the system prompt is one text block and, with the tool list and the newest user
 *   block, carries a prompt-cache breakpoint, so an agent loop re-reads its prefix from the cache.
 *   Function calls become `tool_use` blocks and responses `tool_result` blocks (`is_error` set for
 *   `{error}` responses), listed first in their user message as the API requires.
 * - Thinking: streamed thinking text becomes thought parts; at the end of the block its signature
 *   arrives as an empty thought part carrying `thoughtSignature: "anthropic:<sig>"` (redacted
 *   thinking as `"anthropic-redacted:<data>"`). The prefix marks where a signature came from:
 *   Anthropic verifies signatures, so only its own go back, and other providers never see them.
 *   Thoughts without an Anthropic signature (Gemini's, OpenAI reasoning) are not sent.
 */
import type { ApiError } from '../../contracts/errors';
import type { Content, GenerateRequest, Part } from '../../contracts/messages';
import { modelInfo } from '../models';
import { applyAnthropicStructuredOutput } from '../structured-output/anthropic';
import { ANTHROPIC_REDACTED_PREFIX, ANTHROPIC_SIGNATURE_PREFIX } from './anthropic-signatures';
import { pairToolCalls, safeToolId } from './call-pairing';
import { type ErrorFallback, errorFromEnvelope, nonEmptyText } from './error-envelope';
import { jsonSchemaTools } from './freeform';
import { toolResultText } from './openai-convert';

type Json = Record<string, unknown>;

/** Used when neither the request nor the model table says how long an answer may be. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8_192;
const MIN_THINKING_BUDGET = 1_024;
const CACHE = { type: 'ephemeral' } as const;
/** Anthropic's server-side web search tool, and how many searches one call may run. */
export const WEB_SEARCH_TOOL_TYPE = 'web_search_20250305';
const WEB_SEARCH_MAX_USES = 5;

export function toAnthropicRequestBody(request: GenerateRequest, options: { stream: boolean }): Json {
  const info = modelInfo(request.model);
  const config = request.config ?? {};
  const maxTokens = config.maxOutputTokens ?? info?.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  const body: Json = { model: request.model, max_tokens: maxTokens };
  if (request.systemInstruction) {
    body.system = [{ type: 'text', text: request.systemInstruction, cache_control: CACHE }];
  }
  body.messages = toAnthropicMessages(request.contents);
  const tools = jsonSchemaTools(request.tools);
  if (tools.length > 0) {
    body.tools = tools.map((tool, index, all) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parametersJsonSchema,
      ...(index === all.length - 1 ? { cache_control: CACHE } : {}),
    }));
  }
  // kodo's `webSearch` server-side tool is Anthropic's web search, run on Anthropic's side.
  if (request.builtinTools?.includes('webSearch')) {
    const tools = (body.tools as Json[] | undefined) ?? [];
    body.tools = [
      ...tools,
      { type: WEB_SEARCH_TOOL_TYPE, name: 'web_search', max_uses: WEB_SEARCH_MAX_USES },
    ];
  }
  const wantsThinking = config.includeThoughts === true || (config.thinkingBudget ?? 0) > 0;
  const thinking = wantsThinking && info?.reasoning !== false && maxTokens > MIN_THINKING_BUDGET;
  if (thinking) {
    const requested =
      (config.thinkingBudget ?? 0) > 0 ? (config.thinkingBudget as number) : Math.floor(maxTokens / 2);
    const budget = Math.min(Math.max(MIN_THINKING_BUDGET, requested), maxTokens - 1);
    body.thinking = { type: 'enabled', budget_tokens: budget };
  } else {
    // Sampling settings are refused while thinking is on.
    if (config.temperature !== undefined) body.temperature = config.temperature;
    if (config.topP !== undefined) body.top_p = config.topP;
    if (config.topK !== undefined) body.top_k = config.topK;
  }
  if (config.responseJsonSchema) applyAnthropicStructuredOutput(body, config.responseJsonSchema);
  if (options.stream) body.stream = true;
  return body;
}

function toAnthropicMessages(contents: Content[]): Json[] {
  const messages: Json[] = [];
  for (const content of pairToolCalls(contents, { sanitizeId: safeToolId })) {
    const blocks = content.role === 'model' ? assistantBlocks(content.parts) : userBlocks(content.parts);
    if (blocks.length === 0) continue;
    const role = content.role === 'model' ? 'assistant' : 'user';
    const previous = messages.at(-1);
    // Dropped turns (thoughts only) can leave two of a role in a row: merge them.
    if (previous?.role === role) (previous.content as Json[]).push(...blocks);
    else messages.push({ role, content: blocks });
  }
  const last = messages.at(-1);
  const lastBlock = last?.role === 'user' ? (last.content as Json[]).at(-1) : undefined;
  if (lastBlock && lastBlock.type !== 'thinking') lastBlock.cache_control = CACHE;
  return messages;
}

function assistantBlocks(parts: Part[]): Json[] {
  const blocks: Json[] = [];
  let thinking = '';
  for (const part of parts) {
    if (part.thought) {
      const signature = part.thoughtSignature;
      if (signature?.startsWith(ANTHROPIC_REDACTED_PREFIX)) {
        blocks.push({ type: 'redacted_thinking', data: signature.slice(ANTHROPIC_REDACTED_PREFIX.length) });
        thinking = '';
        continue;
      }
      thinking += part.text ?? '';
      if (signature?.startsWith(ANTHROPIC_SIGNATURE_PREFIX)) {
        blocks.push({
          type: 'thinking',
          thinking,
          signature: signature.slice(ANTHROPIC_SIGNATURE_PREFIX.length),
        });
        thinking = '';
      }
      continue;
    }
    // Unsigned thinking before an answer cannot be sent back: Anthropic verifies signatures.
    thinking = '';
    if (part.functionCall) {
      blocks.push({
        type: 'tool_use',
        id: part.functionCall.id,
        name: part.functionCall.name,
        input: part.functionCall.args ?? {},
      });
    } else if (typeof part.text === 'string' && part.text !== '') {
      blocks.push({ type: 'text', text: part.text });
    }
  }
  return blocks;
}

function userBlocks(parts: Part[]): Json[] {
  const blocks: Json[] = [];
  for (const part of parts) {
    if (part.functionResponse) {
      const { id, response } = part.functionResponse;
      const isError = typeof response.error === 'string';
      const text =
        isError && Object.keys(response).length === 1 ? (response.error as string) : toolResultText(response);
      blocks.push({
        type: 'tool_result',
        tool_use_id: id,
        content: text,
        ...(isError ? { is_error: true } : {}),
      });
    } else if (typeof part.text === 'string' && part.text !== '') {
      blocks.push({ type: 'text', text: part.text });
    } else if (part.inlineData) {
      const { mimeType, data } = part.inlineData;
      const source = { type: 'base64', media_type: mimeType, data };
      if (mimeType.startsWith('image/')) blocks.push({ type: 'image', source });
      else if (mimeType === 'application/pdf') blocks.push({ type: 'document', source });
      else blocks.push({ type: 'text', text: `[${mimeType} content omitted: not supported by this API]` });
    }
  }
  return blocks;
}

const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** `{"type": "error", "error": {"type", "message"}}` (HTTP body or stream event) → ApiError. */
export function anthropicErrorFromBody(body: unknown, fallback: ErrorFallback = {}): ApiError {
  return errorFromEnvelope(
    body,
    fallback,
    (_error, fields) => ({
      message: nonEmptyText(fields.message),
      status: ERROR_STATUS[String(fields.type)],
    }),
    'Error from the Anthropic API',
    // 401 authentication_error (a wrong key), 403 permission_error (a key that may not do this).
    (status) => status === 401 || status === 403,
  );
}
