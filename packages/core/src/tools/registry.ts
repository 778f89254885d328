import type { FunctionDeclaration } from '../llm/types';
import { levenshtein } from '../utils/levenshtein';
import type { Tool } from './tool';

/** Old names models still use, mapped to the current tool. */
const LEGACY_ALIASES: Record<string, string> = { search_file_content: 'grep_search' };

/** The tools a session offers the model, by name. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new Error(`Tool "${tool.name}" is already registered.`);
    this.tools.set(tool.name, tool);
  }

  unregister(name: string): void {
    this.tools.delete(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name) ?? this.tools.get(LEGACY_ALIASES[name] ?? '');
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  declarations(): FunctionDeclaration[] {
    return this.list().map((tool) => tool.declaration());
  }

  /** `Tool "x" not found.` plus the nearest names, as the model expects. */
  notFoundMessage(name: string): string {
    const nearest = this.list()
      .map((tool) => ({ name: tool.name, distance: levenshtein(name, tool.name) }))
      .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
      .slice(0, 3)
      .map((entry) => entry.name);
    let message = `Tool "${name}" not found.`;
    if (nearest.length === 1) message += ` Did you mean "${nearest[0]}"?`;
    else if (nearest.length > 1) message += ` Did you mean one of: ${nearest.map((n) => `"${n}"`).join(', ')}?`;
    return message;
  }
}
