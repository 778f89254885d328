import { isAbortError } from '../../contracts/errors';
import { responseText } from '../../contracts/messages';
import { defineTool, errorMessage } from '../define-tool';
import type { ToolContextFor, ToolResult } from '../tool';
import { withCitations } from '../web/grounding';
import { type SearchQueryParams, searchFailure, searchQueryTool } from '../web/search-query';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['model'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

type Params = SearchQueryParams;

/**
 * Providers whose `generateContent` understands Gemini's Google Search grounding. `fake` replays
 * recorded Gemini sessions, which contain the grounded answers of the original search calls.
 */
const GROUNDING_PROVIDERS = new Set(['gemini', 'fake']);

export const googleWebSearchTool = defineTool({
  name: 'google_web_search',
  uses: USES,
  displayName: 'GoogleSearch',
  kind: 'search',
  description:
    'Performs a web search using Google Search (via the Gemini API) and returns a summary of the ' +
    'results with numbered citations and their sources. Use it for current information or facts ' +
    'that are not in the workspace.',
  ...searchQueryTool,
  execute: (params, ctx, { signal }) => search(params, ctx, signal),
});

async function search(params: Params, ctx: Ctx, signal: AbortSignal): Promise<ToolResult> {
  const { query } = params;
  const fail = (message: string) => searchFailure(query, message);
  const model = ctx.model;
  if (!model) return fail('no model is available to run the search.');
  if (!GROUNDING_PROVIDERS.has(model.provider)) {
    return fail(
      `Google Search is not available with this model (provider "${model.provider}"); it needs a Gemini model.`,
    );
  }
  let answer: string;
  try {
    const response = await model.generateContent(
      { contents: [{ role: 'user', parts: [{ text: query }] }], builtinTools: ['googleSearch'] },
      signal,
    );
    const text = responseText(response);
    if (text.trim() === '') {
      const message = `No search results or information found for query: "${query}"`;
      return { llmContent: message, returnDisplay: 'No information found.' };
    }
    answer = withCitations(text, response.candidates?.[0]?.groundingMetadata);
  } catch (error) {
    if (signal.aborted || isAbortError(error)) {
      return { llmContent: 'Web search was cancelled.', returnDisplay: 'Web search was cancelled.' };
    }
    return fail(errorMessage(error));
  }
  return {
    llmContent: `Web search results for "${query}":\n\n${answer}`,
    returnDisplay: `Search results for "${query}" returned.`,
  };
}
