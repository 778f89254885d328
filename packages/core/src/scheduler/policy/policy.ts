import type { ToolKind } from '../../tools/tool';

export type ApprovalMode = 'default' | 'auto_edit' | 'yolo' | 'plan';
export const APPROVAL_MODES: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo', 'plan'];

export type PolicyDecision = 'allow' | 'deny' | 'ask_user';

/** What a policy knows of a tool without its arguments (enough to decide whether to declare it). */
export interface PolicyToolInfo {
  name: string;
  kind: ToolKind;
  /** The MCP server the tool comes from; otherwise parsed from an `mcp_<server>_<tool>` name. */
  serverName?: string;
  /** The tool's annotations (MCP `readOnlyHint` and the like), matched by `toolAnnotations`. */
  annotations?: Record<string, unknown>;
}

/**
 * The policy facts of a registered tool: its name and kind, and for MCP tools the server they
 * come from and their annotations (tools that carry them expose `serverName` and `annotations`).
 */
export function policyToolInfo(tool: {
  name: string;
  kind: ToolKind;
  serverName?: string;
  annotations?: Readonly<Record<string, unknown>>;
}): PolicyToolInfo {
  return {
    name: tool.name,
    kind: tool.kind,
    ...(tool.serverName ? { serverName: tool.serverName } : {}),
    ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
  };
}

export interface PolicyCheckInput extends PolicyToolInfo {
  args: Record<string, unknown>;
}

export interface PolicyCheckResult {
  decision: PolicyDecision;
  /** Appended to the deny error the model reads. */
  denyMessage?: string;
}

/** The workspace as the policy sees it: where redirections of shell commands may write. */
export interface PolicyWorkspace {
  readonly roots: readonly string[];
  /** Absolute path for a path relative to the working directory. */
  absolute(path: string): string;
  /** Whether an absolute path (after following symlinks) lies inside. */
  contains(absolutePath: string): boolean;
}

export interface PolicyContext {
  mode: ApprovalMode;
  /** A person can answer confirmations; without one an `ask_user` decision becomes a denial. */
  interactive: boolean;
  /**
   * The subagents the call is made inside, outermost first (`invoke_agent` started the first,
   * which started the next…); absent or empty for the main agent. Rules with `subagent` match it.
   */
  agentPath?: readonly string[];
  /**
   * Without it, no redirection target is known to be inside the workspace, so every
   * redirection to a file needs approval (outside yolo).
   */
  workspace?: PolicyWorkspace;
}

/** Decides whether a tool call may run, must be confirmed, or is refused. */
export interface PolicyChecker {
  /** May be asynchronous: checking a shell command loads the shell parser on first use. */
  check(call: PolicyCheckInput, context: PolicyContext): PolicyCheckResult | Promise<PolicyCheckResult>;
  /**
   * "Allow always" from a confirmation: allow calls like this one for the rest of the session,
   * and with `save` from now on (the user's policy file). `mode` is the approval mode the
   * person answered in: the rule holds in it and in the more permissive modes. `wholeServer`:
   * every tool of the call's MCP server (Gemini CLI's "Allow all server tools for this session").
   */
  allowForSession(
    call: PolicyCheckInput,
    options?: { save?: boolean; mode?: ApprovalMode; wholeServer?: boolean },
  ): void;
  /**
   * True when every call of this tool would be denied whatever its arguments: such tools are
   * left out of the declarations sent to the model (and a call to one is answered "not found").
   */
  isToolHidden?(tool: PolicyToolInfo, context: PolicyContext): boolean;
}
