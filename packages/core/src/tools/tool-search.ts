import type { FunctionDeclaration } from '../contracts/messages';
import type { ToolResult } from '../contracts/tool-results';
import type { BuildResult, Tool, ToolSpec } from './tool';

/**
 * `tool_search`: how the model finds tools that are not declared yet (deferred MCP tools, see
 * session/deferred-tools.ts). It answers with each found tool's name, description and parameter
 * schema, so the model can call it at once; the session declares it on the following requests.
 * Written without zod, like the MCP tools: it exists only in sessions with many MCP tools, and
 * must not pull a schema library onto the start-up path.
 */
export const TOOL_SEARCH_NAME = 'tool_search';

/** What the tool searches: the session's deferred tools. */
export interface ToolFinder {
  search(query: string, maxResults?: number): ToolSpec[];
  /** Servers with tools waiting to be found, and how many each. */
  waitingByServer(): Map<string, number>;
}

const PARAMETERS = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description:
        'Words for what you need (e.g. "create issue", "query database"), or select:<name>[,<name>…] for tools you know by name.',
    },
    max_results: {
      type: 'integer',
      minimum: 1,
      maximum: 20,
      description: 'At most this many tools (default 5).',
    },
  },
  required: ['query'],
};

const BASE_DESCRIPTION =
  'Finds tools of the connected MCP servers that are not declared yet. Search before saying a capability is missing. Found tools are returned with their parameters and can be called right away; they stay available for the rest of the session.';

export function createToolSearchTool(finder: ToolFinder): Tool {
  const tool: Tool = {
    name: TOOL_SEARCH_NAME,
    displayName: 'Tool search',
    kind: 'search',
    description: BASE_DESCRIPTION,
    declaration(): FunctionDeclaration {
      const servers = [...finder.waitingByServer()].map(([server, count]) => `${server} (${count})`);
      const description = servers.length
        ? `${BASE_DESCRIPTION} Tools waiting: ${servers.join(', ')}.`
        : BASE_DESCRIPTION;
      return { name: TOOL_SEARCH_NAME, description, parametersJsonSchema: PARAMETERS };
    },
    build(args: unknown): BuildResult {
      const params = (args ?? {}) as Record<string, unknown>;
      const query = params.query;
      const max = params.max_results;
      if (typeof query !== 'string' || query.trim() === '') {
        return {
          ok: false,
          error: { type: 'invalid_tool_params', message: 'params must have a non-empty string query' },
        };
      }
      if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 1)) {
        return {
          ok: false,
          error: { type: 'invalid_tool_params', message: 'max_results must be a whole number ≥ 1' },
        };
      }
      return {
        ok: true,
        invocation: {
          tool,
          params: { query, ...(max !== undefined ? { max_results: max } : {}) },
          describe: () => `"${query}"`,
          locations: () => [],
          confirmationDetails: async () => ({
            kind: 'info',
            title: 'Confirm tool search',
            prompt: `Search the MCP servers' tools for "${query}"?`,
          }),
          execute: async () => searchResult(finder, query, max),
        },
      };
    },
  };
  return tool;
}

function searchResult(finder: ToolFinder, query: string, max: number | undefined): ToolResult {
  const found = finder.search(query, max);
  if (found.length === 0) {
    const servers = [...finder.waitingByServer().keys()];
    const text = `No tool matched "${query}".${servers.length ? ` Servers with tools to search: ${servers.join(', ')}.` : ' No tools are waiting to be found.'}`;
    return { llmContent: text, returnDisplay: text };
  }
  const blocks = found.map((spec) => {
    const declaration = spec.declaration();
    return `<tool name="${spec.name}">\n${declaration.description ?? spec.description}\nParameters: ${JSON.stringify(declaration.parametersJsonSchema ?? {})}\n</tool>`;
  });
  return {
    llmContent: `Found ${found.length} tool(s); call them as usual:\n${blocks.join('\n')}`,
    returnDisplay: `Found ${found.map((spec) => spec.name).join(', ')}`,
  };
}
