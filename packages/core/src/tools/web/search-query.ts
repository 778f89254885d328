// What google_web_search and web_search share: the one parameter, its check, the line shown
// while it runs, and the failure the model sees. Only where the results come from differs.
import * as z from 'zod';
import { failure } from '../results';
import type { ToolResult } from '../tool';

export const searchQueryParameters = z.object({
  query: z.string().describe('The search query to find information on the web.'),
});

export type SearchQueryParams = z.infer<typeof searchQueryParameters>;

export const searchQueryTool = {
  parameters: searchQueryParameters,
  validate: (params: SearchQueryParams) =>
    params.query.trim() === ''
      ? { type: 'invalid_tool_params' as const, message: "The 'query' parameter cannot be empty." }
      : undefined,
  describe: (params: SearchQueryParams) => `Searching the web for: "${params.query}"`,
};

/** The failure result of a search for `query`. */
export function searchFailure(query: string, message: string): ToolResult {
  return failure('web_search_failed', `Error during web search for query "${query}": ${message}`);
}
