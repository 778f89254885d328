/**
 * Claude Code tool names as kodo's. An agent file written for Claude Code (`tools: Read, Grep`)
 * then gets the same abilities here. `undefined` = kodo has no such tool (the name is dropped
 * with a warning); a permission pattern such as `Bash(git add:*)` maps by its tool name.
 */
const CLAUDE_TO_KODO: Record<string, string | undefined> = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'replace',
  MultiEdit: 'replace',
  Bash: 'run_shell_command',
  Grep: 'grep_search',
  Glob: 'glob',
  LS: 'list_directory',
  WebFetch: 'web_fetch',
  WebSearch: 'google_web_search',
  TodoWrite: 'write_todos',
  Skill: 'activate_skill',
  BashOutput: 'read_background_output',
  // Subagents do not start subagents; the loader drops these like every tool of kind agent.
  Task: 'invoke_agent',
  Agent: 'invoke_agent',
  NotebookEdit: undefined,
  NotebookRead: undefined,
  KillShell: undefined,
  ExitPlanMode: 'exit_plan_mode',
  SlashCommand: undefined,
};

export type MappedTool = { ok: true; name: string } | { ok: false; message: string };

/** One entry of a `tools` list as kodo's tool name (kodo and Gemini names pass through). */
export function mapToolName(entry: string): MappedTool {
  const name = entry.trim();
  // `Bash(git:*)` → `Bash`; most entries have no parentheses (and the pattern is compiled only then).
  const bare = name.includes('(') ? (/^([A-Za-z]+)\(.*\)$/.exec(name)?.[1] ?? name) : name;
  if (Object.hasOwn(CLAUDE_TO_KODO, bare)) {
    const mapped = CLAUDE_TO_KODO[bare];
    return mapped
      ? { ok: true, name: mapped }
      : { ok: false, message: `kodo has no tool like Claude Code's ${bare}` };
  }
  // `mcp__server__tool` → `mcp_server_tool`.
  const mcp = /^mcp__([^_]+(?:_[^_]+)*)__(.+)$/.exec(name);
  if (mcp) return { ok: true, name: `mcp_${mcp[1]}_${mcp[2]}` };
  if (/^[A-Za-z0-9_*.-]+$/.test(name)) return { ok: true, name };
  return { ok: false, message: `"${name}" is not a tool name` };
}

/** Claude Code's model aliases as kodo model specs; other values pass through. */
export function mapModelName(model: string): string | undefined {
  const aliases: Record<string, string> = {
    sonnet: 'anthropic:claude-sonnet-4-5',
    opus: 'anthropic:claude-opus-4-5',
    haiku: 'anthropic:claude-haiku-4-5',
  };
  const trimmed = model.trim();
  if (trimmed === '' || trimmed === 'inherit') return undefined;
  return aliases[trimmed] ?? trimmed;
}
