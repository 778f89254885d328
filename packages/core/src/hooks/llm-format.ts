import type { Candidate, Content, GenerateRequest, GenerateResponse, Part } from '../contracts/messages';
import { isRecord } from '../utils/is-record';
import type { HookToolConfig } from './types';

/**
 * The stable, text-only view of model requests and responses that the model hooks see
 * (BeforeModel, AfterModel, BeforeToolSelection), and the way back. Hooks only see text: images,
 * function calls and responses, and thoughts are left out of `messages`, and kept when a hook's
 * edits are merged back.
 */
export interface HookLlmMessage {
  role: 'user' | 'model' | 'system';
  content: string;
}

export interface HookLlmRequest {
  model: string;
  messages: HookLlmMessage[];
  config: { temperature?: number; maxOutputTokens?: number; topP?: number; topK?: number };
  toolConfig?: HookToolConfig;
}

export interface HookLlmResponse {
  text?: string;
  candidates: {
    content: { role: 'model'; parts: string[] };
    finishReason?: string;
    index?: number;
    safetyRatings?: unknown[];
  }[];
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number };
}

const CONFIG_KEYS = ['temperature', 'maxOutputTokens', 'topP', 'topK'] as const;

/** Answer text of a part list: text parts that are not thoughts. */
function textOf(parts: Part[] | undefined): string {
  return (parts ?? [])
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');
}

function hasText(content: Content): boolean {
  return content.parts.some((part) => typeof part.text === 'string' && !part.thought);
}

export function toHookRequest(request: GenerateRequest): HookLlmRequest {
  const messages: HookLlmMessage[] = [];
  if (request.systemInstruction) messages.push({ role: 'system', content: request.systemInstruction });
  for (const content of request.contents) {
    if (hasText(content)) messages.push({ role: content.role, content: textOf(content.parts) });
  }
  const config: HookLlmRequest['config'] = {};
  for (const key of CONFIG_KEYS) {
    const value = request.config?.[key];
    if (value !== undefined) config[key] = value;
  }
  return { model: request.model, messages, config };
}

/**
 * Applies a hook's partial `llm_request` to the real request: `model` and the `config` numbers
 * replace; `messages` are matched in order to the contents that have text (system messages to
 * the system instruction). A changed message replaces that content's text and keeps its other
 * parts; messages beyond the existing ones are appended; contents a hook left out stay as they
 * were (dropping them could separate a function call from its response).
 */
export function applyHookRequest(request: GenerateRequest, patch: Record<string, unknown>): GenerateRequest {
  const next: GenerateRequest = { ...request };
  if (typeof patch.model === 'string' && patch.model.trim() !== '') next.model = patch.model;
  if (isRecord(patch.config)) {
    const config = { ...request.config };
    for (const key of CONFIG_KEYS) {
      const value = patch.config[key];
      if (typeof value === 'number' && Number.isFinite(value)) config[key] = value;
    }
    next.config = config;
  }
  if (Array.isArray(patch.messages)) {
    const messages = patch.messages.filter(
      (message): message is { role?: unknown; content: string } =>
        isRecord(message) && typeof message.content === 'string',
    );
    const system = messages.filter((message) => message.role === 'system');
    if (system.length > 0) next.systemInstruction = system.map((message) => message.content).join('\n');
    const conversation = messages.filter((message) => message.role !== 'system');
    const contents = request.contents.map((content) => ({ ...content, parts: [...content.parts] }));
    const textIndexes = contents.flatMap((content, index) => (hasText(content) ? [index] : []));
    conversation.forEach((message, position) => {
      const index = textIndexes[position];
      if (index === undefined) {
        contents.push({
          role: message.role === 'model' ? 'model' : 'user',
          parts: [{ text: message.content }],
        });
        return;
      }
      const content = contents[index]!;
      if (textOf(content.parts) !== message.content)
        content.parts = replaceText(content.parts, message.content);
    });
    next.contents = contents;
  }
  return next;
}

/** The new text takes the place of the first answer-text part; other parts stay where they are. */
function replaceText(parts: Part[], text: string): Part[] {
  const out: Part[] = [];
  let placed = false;
  for (const part of parts) {
    if (typeof part.text === 'string' && !part.thought) {
      if (!placed) out.push({ text });
      placed = true;
      continue;
    }
    out.push(part);
  }
  if (!placed) out.push({ text });
  return out;
}

export function toHookResponse(response: GenerateResponse): HookLlmResponse {
  const candidates = (response.candidates ?? []).map((candidate) => ({
    content: {
      role: 'model' as const,
      parts: (candidate.content?.parts ?? [])
        .filter((part) => typeof part.text === 'string' && !part.thought)
        .map((part) => part.text!),
    },
    ...(candidate.finishReason ? { finishReason: candidate.finishReason } : {}),
    ...(candidate.index !== undefined ? { index: candidate.index } : {}),
    ...(candidate.safetyRatings ? { safetyRatings: candidate.safetyRatings } : {}),
  }));
  const usage = response.usageMetadata;
  return {
    text: textOf(response.candidates?.[0]?.content?.parts),
    candidates,
    ...(usage
      ? {
          usageMetadata: {
            promptTokenCount: usage.promptTokenCount,
            candidatesTokenCount: usage.candidatesTokenCount,
            totalTokenCount: usage.totalTokenCount,
          },
        }
      : {}),
  };
}

/**
 * A hook's `llm_response` as a response chunk. With `original` (AfterModel), the original's
 * function calls and thoughts are kept after the hook's text, so a hook that rewrites text does
 * not drop the tool calls it never saw; its usage and finish reason are kept when the hook gave
 * none. Undefined when the value has neither candidates nor text.
 */
export function fromHookResponse(
  value: Record<string, unknown>,
  original?: GenerateResponse,
): GenerateResponse | undefined {
  let candidates: Record<string, unknown>[] | undefined;
  if (Array.isArray(value.candidates)) candidates = value.candidates.filter(isRecord);
  else if (typeof value.text === 'string') candidates = [{ content: { parts: [value.text] } }];
  if (!candidates) return undefined;
  const out: GenerateResponse = {
    candidates: candidates.map((raw, index): Candidate => {
      const previous = original?.candidates?.[index];
      const content = isRecord(raw.content) ? raw.content : {};
      const texts = Array.isArray(content.parts)
        ? content.parts.map(partText).filter((t) => t !== undefined)
        : [];
      const kept = (previous?.content?.parts ?? []).filter(
        (part) => !(typeof part.text === 'string' && !part.thought),
      );
      const finishReason = typeof raw.finishReason === 'string' ? raw.finishReason : previous?.finishReason;
      return {
        content: { role: 'model', parts: [...texts.map((text) => ({ text })), ...kept] },
        index: typeof raw.index === 'number' ? raw.index : index,
        ...(finishReason ? { finishReason } : {}),
        ...(Array.isArray(raw.safetyRatings) ? { safetyRatings: raw.safetyRatings } : {}),
      };
    }),
  };
  const usage = isRecord(value.usageMetadata) ? value.usageMetadata : undefined;
  if (usage) {
    out.usageMetadata = {};
    for (const key of ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount'] as const) {
      if (typeof usage[key] === 'number') out.usageMetadata[key] = usage[key];
    }
  } else if (original?.usageMetadata) {
    out.usageMetadata = original.usageMetadata;
  }
  return out;
}

function partText(part: unknown): string | undefined {
  if (typeof part === 'string') return part;
  if (isRecord(part) && typeof part.text === 'string') return part.text;
  return undefined;
}

/** The declarations a `toolConfig` leaves: none for NONE, else the allowed names (all if none listed). */
export function applyToolConfig<T extends { name: string }>(tools: T[], config: HookToolConfig): T[] {
  if (config.mode === 'NONE') return [];
  const allowed = config.allowedFunctionNames;
  if (!allowed || allowed.length === 0) return tools;
  const names = new Set(allowed);
  return tools.filter((tool) => names.has(tool.name));
}
