/**
 * Which of OpenAI's two wire APIs a request goes out on. OpenAI's own models on OpenAI's own API
 * speak the Responses API (what Codex uses, and what keeps their reasoning across tool calls);
 * every other server (llama.cpp, vLLM, Ollama, LM Studio, OpenRouter, a proxy) speaks Chat
 * Completions. `wireApi` on a provider profile overrides the choice.
 */
import { modelInfo } from '../models';

export type OpenAIWireApi = 'responses' | 'chat';
export const OPENAI_WIRE_APIS: readonly OpenAIWireApi[] = ['responses', 'chat'];

const OPENAI_API = /^https:\/\/api\.openai\.com(\/|$)/i;
/** OpenAI's model names the catalogue may not know yet: gpt-…, the o-series, codex. */
const OPENAI_OWN_MODEL = /^(gpt-|chatgpt-|o\d|codex)/i;

export function openAIWireFor(
  baseUrl: string | undefined,
  model: string,
  override: OpenAIWireApi | undefined,
): OpenAIWireApi {
  if (override) return override;
  if (baseUrl && !OPENAI_API.test(baseUrl)) return 'chat';
  const info = modelInfo(model);
  if (info && info.provider === 'openai') return info.responsesApi ? 'responses' : 'chat';
  return OPENAI_OWN_MODEL.test(model) ? 'responses' : 'chat';
}
