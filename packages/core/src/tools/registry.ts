import type { FunctionDeclaration } from '../contracts/messages';
import { levenshtein } from '../utils/levenshtein';
import type { LazyTool, Tool, ToolSpec } from './tool';

/** Old names models still use, mapped to the current tool. */
const LEGACY_ALIASES: Record<string, string> = { search_file_content: 'grep_search' };

type Entry = { spec: ToolSpec; loaded?: Tool; load?: () => Promise<Tool> };

/**
 * The tools a session offers the model, by name. Tools may be registered loaded, or lazily (a
 * declaration now, the implementation on first call): startup never pays for tools not used.
 */
export class ToolRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(tools: Iterable<Tool | LazyTool> = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool | LazyTool): void {
    if (this.entries.has(tool.name)) throw new Error(`Tool "${tool.name}" is already registered.`);
    if ('load' in tool) {
      this.entries.set(tool.name, { spec: tool, load: () => tool.load() });
    } else {
      this.entries.set(tool.name, { spec: tool, loaded: tool });
    }
  }

  unregister(name: string): void {
    this.entries.delete(name);
  }

  /** Name, kind and declaration, without loading the implementation. */
  get(name: string): ToolSpec | undefined {
    return this.entry(name)?.spec;
  }

  /** The implementation, loading it on first use. */
  async load(name: string): Promise<Tool | undefined> {
    const entry = this.entry(name);
    if (!entry) return undefined;
    entry.loaded ??= await entry.load!();
    return entry.loaded;
  }

  list(): ToolSpec[] {
    return [...this.entries.values()].map((entry) => entry.spec);
  }

  /** A registry of only these tools (a subagent's), sharing their loaded implementations. */
  subset(names: readonly string[]): ToolRegistry {
    const registry = new ToolRegistry();
    for (const name of names) {
      const entry = this.entries.get(name);
      if (entry) registry.entries.set(name, entry);
    }
    return registry;
  }

  declarations(): FunctionDeclaration[] {
    return this.list().map((tool) => tool.declaration());
  }

  /** `Tool "x" not found.` plus the nearest names (among the tools `offered`), as the model expects. */
  notFoundMessage(name: string, offered: (tool: ToolSpec) => boolean = () => true): string {
    const nearest = this.list()
      .filter(offered)
      .map((tool) => ({ name: tool.name, distance: levenshtein(name, tool.name) }))
      .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
      .slice(0, 3)
      .map((entry) => entry.name);
    let message = `Tool "${name}" not found.`;
    if (nearest.length === 1) message += ` Did you mean "${nearest[0]}"?`;
    else if (nearest.length > 1)
      message += ` Did you mean one of: ${nearest.map((n) => `"${n}"`).join(', ')}?`;
    return message;
  }

  private entry(name: string): Entry | undefined {
    return this.entries.get(name) ?? this.entries.get(LEGACY_ALIASES[name] ?? '');
  }
}
