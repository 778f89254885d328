import { isAbortError } from '../../contracts/errors';
import { responseText } from '../../contracts/messages';
import { defineTool, errorMessage } from '../define-tool';
import type { ToolContextFor, ToolModelClient, ToolResult } from '../tool';
import { withCitations } from '../web/grounding';
import {
  hasNativeWebSearch,
  type SearchResult,
  searchProviderLabel,
  searchWeb,
  type WebSearchBackend,
} from '../web/search-api';
import { type SearchQueryParams, searchFailure, searchQueryTool } from '../web/search-query';
import { wrapUntrusted } from '../web/untrusted';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['model', 'webSearch'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

type Params = SearchQueryParams;

/**
 * web_search: a provider-neutral search. With `tools.webSearch` it asks the configured search API
 * (Brave, Tavily, SearXNG) and lists the results; without it, a provider that has its own search
 * (Anthropic) answers through that. Gemini models keep google_web_search.
 */
export const webSearchTool = defineTool({
  name: 'web_search',
  uses: USES,
  displayName: 'WebSearch',
  kind: 'search',
  description:
    'Searches the web and returns the top results (title, URL and a snippet of each) with their ' +
    'sources. Use it for current information or facts that are not in the workspace; read a ' +
    'result in full with web_fetch.',
  ...searchQueryTool,
  execute: (params, ctx, { signal }) => search(params, ctx, signal),
});

async function search(params: Params, ctx: Ctx, signal: AbortSignal): Promise<ToolResult> {
  const { query } = params;
  const fail = (message: string) => searchFailure(query, message);
  try {
    if (ctx.webSearch && 'error' in ctx.webSearch) return fail(ctx.webSearch.error);
    if (ctx.webSearch)
      return listResults(query, ctx.webSearch, await searchWeb(ctx.webSearch, query, signal));
    if (ctx.model && hasNativeWebSearch(ctx.model.provider))
      return await nativeSearch(query, ctx.model, signal);
    return fail(
      'no search API is configured. Set tools.webSearch.provider to "brave", "tavily" or "searxng" ' +
        '(with BRAVE_API_KEY, TAVILY_API_KEY or tools.webSearch.baseUrl), or use a model whose ' +
        'provider searches itself (Gemini: google_web_search; Anthropic).',
    );
  } catch (error) {
    if (signal.aborted || isAbortError(error)) {
      return { llmContent: 'Web search was cancelled.', returnDisplay: 'Web search was cancelled.' };
    }
    return fail(errorMessage(error));
  }
}

function listResults(query: string, backend: WebSearchBackend, results: SearchResult[]): ToolResult {
  const label = searchProviderLabel(backend.provider);
  if (results.length === 0) {
    return {
      llmContent: `No search results or information found for query: "${query}"`,
      returnDisplay: 'No information found.',
    };
  }
  const entries = results.map(
    (result, index) =>
      `[${index + 1}] ${result.title}\n${result.url}${result.snippet ? `\n${result.snippet}` : ''}`,
  );
  const sources = results.map((result, index) => `[${index + 1}] ${result.title} (${result.url})`);
  // Titles and snippets are written by the pages' authors: framed as data for the model.
  return {
    llmContent: `Web search results for "${query}" (${label}):\n\n${wrapUntrusted(entries.join('\n\n'))}\n\nSources:\n${sources.join('\n')}`,
    returnDisplay: `${results.length} result(s) for "${query}" from ${label}.`,
  };
}

async function nativeSearch(query: string, model: ToolModelClient, signal: AbortSignal): Promise<ToolResult> {
  const response = await model.generateContent(
    { contents: [{ role: 'user', parts: [{ text: query }] }], builtinTools: ['webSearch'] },
    signal,
  );
  const text = responseText(response);
  if (text.trim() === '') {
    return {
      llmContent: `No search results or information found for query: "${query}"`,
      returnDisplay: 'No information found.',
    };
  }
  const answer = withCitations(text, response.candidates?.[0]?.groundingMetadata);
  return {
    llmContent: `Web search results for "${query}":\n\n${wrapUntrusted(answer)}`,
    returnDisplay: `Search results for "${query}" returned.`,
  };
}
