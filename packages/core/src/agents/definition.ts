import type { Effort } from '../llm/effort';
import { hasStringFields, isRecord } from '../utils/is-record';

/** Where an agent definition came from; the first registration of a name wins, in this order. */
export type AgentScope = 'builtin' | 'project' | 'user' | 'extension';

/** A subagent kodo can run: what the loop needs to start one, and where it was defined. */
export interface AgentDefinition {
  /** `invoke_agent`'s `agent_name`. */
  name: string;
  displayName?: string;
  /** Shown to the main model in the list of subagents. */
  description: string;
  /** The subagent's system prompt (the file's body). */
  systemPrompt: string;
  /**
   * kodo tool names or wildcards (`*`, `mcp_*`, `mcp_<server>_*`) the subagent may use;
   * undefined = every tool of the parent. Tools of kind `agent` are never passed on.
   */
  tools?: string[];
  /** Tools to take away from the set above (Claude Code `disallowedTools`). */
  disallowedTools?: string[];
  /** Model spec; undefined = the session's model. */
  model?: string;
  temperature?: number;
  /** How hard the subagent's model thinks (`effort:` in the file); undefined = the session's. */
  effort?: Effort;
  limits: { maxTurns: number; timeoutMinutes: number };
  /** The single input parameter the model fills (`objective`, `request`, `query`). */
  inputName: string;
  /** Inline MCP servers started for this agent only (as written; snake_case or camelCase). */
  mcpServers?: Record<string, unknown>;
  source: {
    scope: AgentScope;
    /** Absolute path of the file; absent for built-ins. */
    path?: string;
    /** The file format it was read as. */
    format: 'builtin' | 'gemini' | 'claude' | 'kodo';
    extensionName?: string;
  };
}

export const DEFAULT_AGENT_LIMITS = { maxTurns: 30, timeoutMinutes: 10 } as const;

/** Whether data read back from a cache file has an agent definition's shape. */
export function isAgentDefinition(value: unknown): value is AgentDefinition {
  return (
    hasStringFields(value, ['name', 'description', 'systemPrompt', 'inputName']) &&
    isRecord(value.limits) &&
    typeof value.limits.maxTurns === 'number' &&
    typeof value.limits.timeoutMinutes === 'number' &&
    hasStringFields(value.source, ['scope', 'format'])
  );
}
