import type { ToolRegistry } from '../tools/registry';
import type { ToolSpec } from '../tools/tool';
import { createToolSearchTool, TOOL_SEARCH_NAME } from '../tools/tool-search';

/**
 * Deferred tools: many MCP servers can declare hundreds of tools, and every request would carry
 * every schema. Past a threshold of declared tools, MCP tools the model has not used yet are left
 * out of the declarations; `tool_search` finds them by words or by name, and from then on they
 * are declared on every request of the session (as Claude Code's ToolSearch and Codex's
 * tool_search do). Built-in tools are always declared: they are what the system prompt teaches.
 *
 * A deferred tool stays registered, so a call to one the model knows by name still runs, under
 * the same policy and approval as any call; it is declared from then on too.
 */

/** Declared tools past which MCP tools wait to be found (`tools.toolSearch.threshold`). */
export const DEFAULT_DEFER_TOOLS_ABOVE = 40;
const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 20;

/** A tool that may wait to be found: an MCP server's. */
function isDeferrable(tool: ToolSpec): boolean {
  return 'serverName' in tool;
}

export class DeferredTools {
  private readonly found = new Set<string>();
  /** What the latest request left out: what `tool_search` searches. */
  private waiting: ToolSpec[] = [];

  constructor(private readonly threshold: number) {}

  /**
   * The tools to declare, from those the model may see: all of them up to the threshold;
   * past it the built-ins, the MCP tools already found or used, and `tool_search`.
   */
  select(offered: readonly ToolSpec[]): ToolSpec[] {
    const search = offered.find((tool) => tool.name === TOOL_SEARCH_NAME);
    const tools = offered.filter((tool) => tool.name !== TOOL_SEARCH_NAME);
    this.waiting = [];
    if (!search || tools.length <= this.threshold) return tools;
    const declared: ToolSpec[] = [];
    for (const tool of tools) {
      if (isDeferrable(tool) && !this.found.has(tool.name)) this.waiting.push(tool);
      else declared.push(tool);
    }
    return this.waiting.length > 0 ? [...declared, search] : tools;
  }

  /** Servers whose tools wait to be found, with how many each (for `tool_search`'s description). */
  waitingByServer(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const tool of this.waiting) {
      const server = (tool as { serverName?: string }).serverName ?? '';
      counts.set(server, (counts.get(server) ?? 0) + 1);
    }
    return counts;
  }

  /**
   * The waiting tools that match `query` (`select:a,b` names tools; otherwise words scored
   * against names and descriptions), best first. Those returned are declared from now on.
   */
  search(query: string, maxResults = DEFAULT_RESULTS): ToolSpec[] {
    const limit = Math.min(Math.max(1, Math.floor(maxResults)), MAX_RESULTS);
    const matches = query.trim().startsWith('select:') ? this.selectByName(query) : this.rank(query);
    const picked = matches.slice(0, limit);
    for (const tool of picked) this.found.add(tool.name);
    return picked;
  }

  /** Calls the model made: a tool used is declared on the following requests. */
  noteCalled(names: Iterable<string>): void {
    for (const name of names) this.found.add(name);
  }

  private selectByName(query: string): ToolSpec[] {
    const names = query.trim().slice('select:'.length).split(',');
    const wanted = new Set(names.map((name) => name.trim()).filter(Boolean));
    return this.waiting.filter((tool) => wanted.has(tool.name));
  }

  private rank(query: string): ToolSpec[] {
    const words = query
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 1);
    if (words.length === 0) return [];
    const scored: { tool: ToolSpec; score: number }[] = [];
    for (const tool of this.waiting) {
      const name = tool.name.toLowerCase();
      const description = tool.description.toLowerCase();
      let score = 0;
      for (const word of words) {
        if (name.includes(word)) score += 3;
        if (description.includes(word)) score += 1;
      }
      if (score > 0) scored.push({ tool, score });
    }
    // Stable for equal scores: the servers' own order.
    return scored.sort((a, b) => b.score - a.score).map((entry) => entry.tool);
  }
}

/** Registers this session's `tool_search` (replacing another session's) and returns `deferred`. */
export function withToolSearch(deferred: DeferredTools, tools: ToolRegistry): DeferredTools {
  tools.unregister(TOOL_SEARCH_NAME);
  tools.register(createToolSearchTool(deferred));
  return deferred;
}
