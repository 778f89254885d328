/**
 * Picks the Gemini transport. `lean` (the default) is kodo's own node:http client; `sdk` runs the
 * official `@google/genai` SDK and is imported only when chosen, so the default path never pays
 * for loading it. The env switch is `KODO_GEMINI_TRANSPORT=sdk`.
 */
import type { ContentGenerator } from '../content-generator';
import { type GeminiClientOptions, GeminiContentGenerator } from './gemini';

export type GeminiTransport = 'lean' | 'sdk';

export interface GeminiGeneratorOptions extends GeminiClientOptions {
  /** Default: `KODO_GEMINI_TRANSPORT` if it names a transport, else `lean`. */
  transport?: GeminiTransport;
}

/** Reads the transport from the environment; unknown values fall back to `lean`. */
export function geminiTransportFromEnv(env: NodeJS.ProcessEnv = process.env): GeminiTransport {
  return env.KODO_GEMINI_TRANSPORT?.trim().toLowerCase() === 'sdk' ? 'sdk' : 'lean';
}

export async function createGeminiGenerator(options: GeminiGeneratorOptions): Promise<ContentGenerator> {
  const { transport = geminiTransportFromEnv(), ...clientOptions } = options;
  if (transport === 'sdk') {
    const { createSdkGeminiGenerator } = await import('./gemini-sdk');
    return createSdkGeminiGenerator(clientOptions);
  }
  return new GeminiContentGenerator(clientOptions);
}
