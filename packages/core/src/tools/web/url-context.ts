/**
 * web_fetch's first path on Gemini models: one `generateContent` call with the URL-context tool,
 * so Google fetches the pages and the model answers the prompt with citations. Only when that
 * call fails, or brings back neither text nor sources (or every URL failed to load), does
 * web_fetch fetch the pages itself. This is the order Gemini CLI uses, so a replayed Gemini CLI
 * session meets its recorded URL-context answer first.
 */
import { isAbortError } from '../../contracts/errors';
import { responseText } from '../../contracts/messages';
import { errorMessage } from '../define-tool';
import type { ToolModelClient } from '../tool';
import { withCitations } from './grounding';

/** Providers whose `generateContent` has the URL-context tool (`fake` replays Gemini sessions). */
const URL_CONTEXT_PROVIDERS: ReadonlySet<string> = new Set(['gemini', 'fake']);

const RETRIEVED = 'URL_RETRIEVAL_STATUS_SUCCESS';

export type UrlContextOutcome =
  | { kind: 'answer'; text: string }
  /** Fetch directly instead; `reason` is for the debug log and tests. */
  | { kind: 'fallback'; reason: string }
  | { kind: 'cancelled' };

export function hasUrlContext(model: ToolModelClient): boolean {
  return URL_CONTEXT_PROVIDERS.has(model.provider);
}

export async function answerWithUrlContext(
  model: ToolModelClient,
  prompt: string,
  signal: AbortSignal,
): Promise<UrlContextOutcome> {
  let response: Awaited<ReturnType<ToolModelClient['generateContent']>>;
  try {
    response = await model.generateContent(
      { contents: [{ role: 'user', parts: [{ text: prompt }] }], builtinTools: ['urlContext'] },
      signal,
    );
  } catch (error) {
    if (signal.aborted || isAbortError(error)) return { kind: 'cancelled' };
    return { kind: 'fallback', reason: errorMessage(error) };
  }
  const candidate = response.candidates?.[0];
  const text = responseText(response);
  const grounding = candidate?.groundingMetadata;
  const retrievals = candidate?.urlContextMetadata?.urlMetadata ?? [];
  if (retrievals.length > 0 && retrievals.every((entry) => entry.urlRetrievalStatus !== RETRIEVED)) {
    return { kind: 'fallback', reason: 'no URL could be retrieved through the URL context' };
  }
  if (text.trim() === '' && (grounding?.groundingChunks?.length ?? 0) === 0) {
    return { kind: 'fallback', reason: 'the URL-context answer had neither text nor sources' };
  }
  return { kind: 'answer', text: withCitations(text, grounding) };
}
