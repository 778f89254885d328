import type { ToolKind } from '../../tools/tool';
import type { ApprovalMode, PolicyContext, PolicyDecision, PolicyToolInfo } from './policy';

/** Where a rule comes from; the tier is the integer part of its effective priority. */
export type PolicyTier = 'default' | 'extension' | 'workspace' | 'user' | 'admin';

export const TIER_BASE: Readonly<Record<PolicyTier, number>> = {
  default: 1,
  extension: 2,
  workspace: 3,
  user: 4,
  admin: 5,
};

/** Effective priority: tier + priority/1000, so any rule of a higher tier beats a lower tier. */
export function effectivePriority(tier: PolicyTier, priority: number): number {
  return TIER_BASE[tier] + priority / 1000;
}

/** A compiled rule, as the engine matches it. */
export interface PolicyRule {
  /** Exact name, `*` (any tool), or a pattern where `*` stands for any text (`mcp_github_*`). */
  toolName?: string;
  /** MCP server the tool must come from (`*` = any server). */
  mcpName?: string;
  /** Tested against the stable stringification of the arguments. */
  argsPattern?: RegExp;
  decision: PolicyDecision;
  /** Effective priority (tier + priority/1000). */
  priority: number;
  /** Modes the rule applies in; absent = all. */
  modes?: readonly ApprovalMode[];
  /** true = interactive only, false = headless only, absent = both. */
  interactive?: boolean;
  /** Every listed annotation must equal the tool's. */
  toolAnnotations?: Readonly<Record<string, unknown>>;
  /** Keep an allow for shell commands that redirect output. */
  allowRedirection?: boolean;
  denyMessage?: string;
  /**
   * Only for calls made inside this subagent (Gemini CLI's `subagent` field), by name, any case.
   * A deny or ask holds in the agents it starts too (stricter); an allow only in that agent itself.
   */
  subagent?: string;
  /**
   * A `[[safety_checker]]` kodo cannot run (its name): not a rule that decides, but one that
   * turns an allow of the calls it matches into a question, whatever the priority (a checker can
   * only make a decision stricter, and kodo cannot tell when it would have).
   */
  unenforcedChecker?: string;
  /**
   * An ask that stays an ask without a person (`tools.confirmationRequired`): headless, the tool
   * is still offered and each call fails with "requires user confirmation" instead of the tool
   * being hidden, as in Gemini CLI. Shell calls are not split: the whole command asks.
   */
  alwaysAsk?: boolean;
  /** kodo's built-in rules only: match tools by kind (not expressible in TOML). */
  kinds?: ReadonlySet<ToolKind>;
  /** Where the rule came from, for messages and debugging (file path, `settings`, `session`). */
  source?: string;
}

/** TOML/settings mode names → kodo's approval modes (`autoEdit` is Gemini CLI's spelling). */
export function parseMode(value: string): ApprovalMode | undefined {
  switch (value) {
    case 'default':
    case 'yolo':
    case 'plan':
      return value;
    case 'autoEdit':
    case 'auto_edit':
      return 'auto_edit';
    default:
      return undefined;
  }
}

/** The MCP server of a tool: from its metadata, or parsed from `mcp_<server>_<tool>`. */
export function serverOf(tool: PolicyToolInfo): string | undefined {
  if (tool.serverName) return tool.serverName;
  if (!tool.name.startsWith('mcp_')) return undefined;
  const rest = tool.name.slice(4);
  const end = rest.indexOf('_');
  return end > 0 ? rest.slice(0, end) : undefined;
}

/** Everything but the arguments: name, server, mode, interactivity, annotations, kind. */
export function ruleAppliesToTool(rule: PolicyRule, tool: PolicyToolInfo, context: PolicyContext): boolean {
  if (rule.modes && rule.modes.length > 0 && !rule.modes.includes(context.mode)) return false;
  if (rule.interactive !== undefined && rule.interactive !== context.interactive) return false;
  if (rule.kinds && !rule.kinds.has(tool.kind)) return false;
  if (rule.subagent !== undefined && !subagentMatches(rule, context.agentPath ?? [])) return false;
  if (!nameMatches(rule, tool)) return false;
  if (rule.toolAnnotations) {
    const annotations = tool.annotations ?? {};
    for (const [key, expected] of Object.entries(rule.toolAnnotations)) {
      if (annotations[key] !== expected) return false;
    }
  }
  return true;
}

/**
 * A deny or ask for a subagent holds for every call made inside it, also by the agents it starts
 * (a rule must never be dodged by delegating one level deeper); an allow holds only for the
 * agent's own calls, never for an agent it starts.
 */
function subagentMatches(rule: PolicyRule, agentPath: readonly string[]): boolean {
  const wanted = rule.subagent!.toLowerCase();
  if (rule.decision === 'allow') return agentPath.at(-1)?.toLowerCase() === wanted;
  return agentPath.some((name) => name.toLowerCase() === wanted);
}

/**
 * `invoke_agent` calls are also known by the agent they start (Gemini CLI's alias), so
 * `toolName = "codebase_investigator"` decides whether that agent may run. Agents are named in
 * any case, so the comparison is too.
 */
export function agentAliasMatches(rule: PolicyRule, agentName: string): boolean {
  if (rule.mcpName !== undefined || rule.toolName === undefined || rule.toolName === '*') return false;
  const pattern = rule.toolName.toLowerCase();
  const name = agentName.toLowerCase();
  if (!pattern.includes('*')) return pattern === name;
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`).test(name);
}

function nameMatches(rule: PolicyRule, tool: PolicyToolInfo): boolean {
  const server = serverOf(tool);
  if (rule.mcpName !== undefined) {
    if (server === undefined) return false;
    if (rule.mcpName !== '*' && rule.mcpName !== server) return false;
  }
  const pattern = rule.toolName;
  if (pattern === undefined || pattern === '*') return true;
  if (pattern === 'mcp_*') return server !== undefined;
  if (!pattern.includes('*')) return pattern === tool.name;
  const parts = pattern.split('*');
  if (parts.length === 2 && parts[1] === '') return tool.name.startsWith(parts[0]!);
  return new RegExp(`^${parts.map(escapeRegExp).join('.*')}$`).test(tool.name);
}

/** Rules sorted for matching: highest effective priority first; stable for equal priorities. */
export function sortRules(rules: PolicyRule[]): PolicyRule[] {
  return rules
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
    .map((entry) => entry.rule);
}

/** Escapes text for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `commandPrefix` as an args pattern: the command starts with the prefix followed by whitespace,
 * a quote or the end of the string (the closing quote of the JSON value), so `git` matches
 * `git status` and `git` but not `gitk`.
 */
export function commandPrefixPattern(prefix: string): RegExp {
  const jsonText = JSON.stringify(prefix).slice(1, -1);
  return new RegExp(`\\x00"command":"${escapeRegExp(jsonText)}(?:[\\s"]|\\\\")`);
}

/** `commandRegex` as an args pattern: the user's regex applied from the start of the command. */
export function commandRegexPattern(source: string): RegExp {
  // A leading `^` would otherwise never match: the fragment before it already anchors the start.
  const body = source.startsWith('^') ? source.slice(1) : source;
  return new RegExp(`\\x00"command":"(?:${body})`);
}
