/**
 * Anthropic Messages stream events → kodo chunks, for the client in anthropic.ts. Text and
 * thinking pass through as they arrive; a tool call is released, parsed, when its block closes;
 * the signature of a thinking block arrives as an empty thought part
 * carrying `thoughtSignature: "anthropic:<sig>"` (see anthropic-convert.ts for why).
 */

import type { FinishReason, GenerateResponse, Part, UsageMetadata } from '../../contracts/messages';
import { boundedArgs } from '../args-depth';
import { readShape } from '../response-shape';
import { anthropicErrorFromBody } from './anthropic-convert';
import { ANTHROPIC_SOURCE, checkAnthropicEvent } from './anthropic-shape';
import { ANTHROPIC_REDACTED_PREFIX, ANTHROPIC_SIGNATURE_PREFIX } from './anthropic-signatures';
import { modelChunk } from './model-chunk';

type Json = Record<string, unknown>;

const STOP_REASONS: Record<string, FinishReason> = {
  end_turn: 'STOP',
  tool_use: 'STOP',
  stop_sequence: 'STOP',
  pause_turn: 'STOP',
  max_tokens: 'MAX_TOKENS',
  model_context_window_exceeded: 'MAX_TOKENS',
  refusal: 'SAFETY',
};

export function mapStopReason(reason: string): FinishReason {
  return STOP_REASONS[reason] ?? 'STOP';
}

export function mapAnthropicUsage(usage: Json): UsageMetadata {
  const num = (value: unknown) => (typeof value === 'number' ? value : 0);
  const cacheRead = num(usage.cache_read_input_tokens);
  const prompt = num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + cacheRead;
  const output = num(usage.output_tokens);
  const out: UsageMetadata = {
    promptTokenCount: prompt,
    candidatesTokenCount: output,
    totalTokenCount: prompt + output,
  };
  if (cacheRead > 0) out.cachedContentTokenCount = cacheRead;
  return out;
}

interface OpenBlock {
  type: string;
  id?: string;
  name?: string;
  json: string;
  signature: string;
}

/**
 * Turns Messages stream events into kodo chunks. Text and thinking pass through as they arrive;
 * a tool call is released, parsed, when its block closes; `message_stop` brings the finish reason
 * and usage. A stream without `message_stop` ends without a finish reason (Chat retries it).
 */
export class AnthropicStreamConverter {
  private readonly blocks = new Map<number, OpenBlock>();
  private usage: Json = {};
  private stopReason: string | undefined;
  private malformed = false;
  private meta: Partial<GenerateResponse> = {};

  push(event: unknown): GenerateResponse[] {
    const e = readShape(ANTHROPIC_SOURCE, () => checkAnthropicEvent(event));
    switch (e.type) {
      case 'message_start': {
        const message = (e.message ?? {}) as Json;
        if (typeof message.model === 'string') this.meta.modelVersion = message.model;
        if (typeof message.id === 'string') this.meta.responseId = message.id;
        this.usage = { ...((message.usage as Json | undefined) ?? {}) };
        return [];
      }
      case 'content_block_start':
        return this.startBlock(Number(e.index), (e.content_block ?? {}) as Json);
      case 'content_block_delta':
        return this.delta(Number(e.index), (e.delta ?? {}) as Json);
      case 'content_block_stop':
        return this.stopBlock(Number(e.index));
      case 'message_delta': {
        const delta = (e.delta ?? {}) as Json;
        if (typeof delta.stop_reason === 'string') this.stopReason = delta.stop_reason;
        // Counts here are cumulative and win over message_start's.
        const usage = (e.usage ?? {}) as Json;
        for (const [key, value] of Object.entries(usage))
          if (typeof value === 'number') this.usage[key] = value;
        return [];
      }
      case 'message_stop': {
        const finish = this.malformed
          ? 'MALFORMED_FUNCTION_CALL'
          : mapStopReason(this.stopReason ?? 'end_turn');
        return [modelChunk([], { ...this.meta, usageMetadata: mapAnthropicUsage(this.usage) }, finish)];
      }
      case 'error':
        throw anthropicErrorFromBody(e);
      default:
        // `ping` and event types added later.
        return [];
    }
  }

  end(): GenerateResponse[] {
    return [];
  }

  private startBlock(index: number, block: Json): GenerateResponse[] {
    const type = String(block.type);
    if (type === 'redacted_thinking') {
      const signature = `${ANTHROPIC_REDACTED_PREFIX}${String(block.data ?? '')}`;
      return [modelChunk([{ text: '', thought: true, thoughtSignature: signature }], { ...this.meta })];
    }
    if (type === 'web_search_tool_result') return this.searchResults(block);
    const open: OpenBlock = { type, json: '', signature: '' };
    if (type === 'tool_use') {
      open.id = String(block.id ?? '');
      open.name = String(block.name ?? '');
      const input = block.input;
      if (input && typeof input === 'object' && Object.keys(input).length > 0)
        open.json = JSON.stringify(input);
    }
    this.blocks.set(index, open);
    // A block may open with text already in it.
    if (type === 'text' && typeof block.text === 'string' && block.text !== '') {
      return [modelChunk([{ text: block.text }], { ...this.meta })];
    }
    if (type === 'thinking' && typeof block.thinking === 'string' && block.thinking !== '') {
      return [modelChunk([{ text: block.thinking, thought: true }], { ...this.meta })];
    }
    return [];
  }

  /**
   * The results of a server-side web search become grounding sources, as Gemini's grounded
   * answers carry them; the search call itself (`server_tool_use`) is Anthropic's business.
   */
  private searchResults(block: Json): GenerateResponse[] {
    if (!Array.isArray(block.content)) return [];
    const groundingChunks = (block.content as Json[])
      .filter((item) => item.type === 'web_search_result' && typeof item.url === 'string')
      .map((item) => ({ web: { uri: String(item.url), title: String(item.title ?? '') } }));
    if (groundingChunks.length === 0) return [];
    const chunk = modelChunk([], { ...this.meta });
    chunk.candidates![0]!.groundingMetadata = { groundingChunks };
    return [chunk];
  }

  private delta(index: number, delta: Json): GenerateResponse[] {
    const block = this.blocks.get(index);
    switch (delta.type) {
      case 'text_delta':
        return typeof delta.text === 'string' && delta.text !== ''
          ? [modelChunk([{ text: delta.text }], { ...this.meta })]
          : [];
      case 'thinking_delta':
        return typeof delta.thinking === 'string' && delta.thinking !== ''
          ? [modelChunk([{ text: delta.thinking, thought: true }], { ...this.meta })]
          : [];
      case 'signature_delta':
        if (block) block.signature += String(delta.signature ?? '');
        return [];
      case 'input_json_delta':
        if (block) block.json += String(delta.partial_json ?? '');
        return [];
      default:
        return [];
    }
  }

  private stopBlock(index: number): GenerateResponse[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (!block) return [];
    if (block.type === 'thinking' && block.signature !== '') {
      const part = {
        text: '',
        thought: true,
        thoughtSignature: `${ANTHROPIC_SIGNATURE_PREFIX}${block.signature}`,
      };
      return [modelChunk([part], { ...this.meta })];
    }
    if (block.type !== 'tool_use') return [];
    let args: unknown;
    try {
      args = block.json.trim() === '' ? {} : JSON.parse(block.json);
    } catch {
      args = undefined;
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) {
      this.malformed = true;
      return [];
    }
    // Over-deep arguments become a marker the scheduler refuses (args-depth.ts).
    const call = {
      id: block.id ?? '',
      name: block.name ?? '',
      args: boundedArgs(args as Record<string, unknown>),
    };
    return [modelChunk([{ functionCall: call }], { ...this.meta })];
  }
}

/** Joins a streamed answer into one response (generateContent streams, see anthropic.ts). */
export function joinChunks(chunks: GenerateResponse[]): GenerateResponse {
  const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
  const merged: Part[] = [];
  for (const part of parts) {
    const previous = merged.at(-1);
    const plain = (p: Part) =>
      typeof p.text === 'string' &&
      p.thoughtSignature === undefined &&
      Object.keys(p).every((k) => k === 'text' || k === 'thought');
    if (previous && plain(previous) && plain(part) && Boolean(previous.thought) === Boolean(part.thought)) {
      previous.text = `${previous.text ?? ''}${part.text ?? ''}`;
    } else {
      merged.push({ ...part });
    }
  }
  let finishReason: FinishReason | undefined;
  let usage: UsageMetadata | undefined;
  let meta: Partial<GenerateResponse> = {};
  for (const chunk of chunks) {
    finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
    usage = chunk.usageMetadata ?? usage;
    if (chunk.modelVersion) meta = { ...meta, modelVersion: chunk.modelVersion };
    if (chunk.responseId) meta = { ...meta, responseId: chunk.responseId };
  }
  const response = modelChunk(merged, meta, finishReason);
  if (usage) response.usageMetadata = usage;
  const groundingChunks = chunks.flatMap(
    (chunk) => chunk.candidates?.[0]?.groundingMetadata?.groundingChunks ?? [],
  );
  if (groundingChunks.length > 0) response.candidates![0]!.groundingMetadata = { groundingChunks };
  return response;
}
