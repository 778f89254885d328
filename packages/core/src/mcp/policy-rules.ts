/**
 * Policy rules that MCP settings imply, in the user tier: `mcp.excluded` denies
 * a server's tools (4.9), `trust: true` allows them without asking (4.2) and `mcp.allowed` does
 * the same (4.1); both allows hold outside plan mode only. Rules match the server by `mcpName`,
 * so a server whose name contains `_` is matched as well as any other.
 */
import type { ApprovalMode } from '../scheduler/policy/policy';
import { effectivePriority, type PolicyRule } from '../scheduler/policy/rule';
import type { McpGlobalSettings } from './config';
import { stringList } from './config-check';

const ALL_BUT_PLAN: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo'];

export function mcpPolicyRules(input: {
  servers: Record<string, unknown> | undefined;
  mcp?: McpGlobalSettings | undefined;
}): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const name of stringList(input.mcp?.excluded).filter(Boolean)) {
    rules.push({
      mcpName: name,
      decision: 'deny',
      priority: effectivePriority('user', 900),
      source: 'settings mcp.excluded',
    });
  }
  for (const [name, entry] of Object.entries(input.servers ?? {})) {
    if ((entry as { trust?: unknown } | null)?.trust !== true) continue;
    rules.push({
      mcpName: name,
      decision: 'allow',
      priority: effectivePriority('user', 200),
      modes: ALL_BUT_PLAN,
      source: `settings mcpServers.${name}.trust`,
    });
  }
  for (const name of stringList(input.mcp?.allowed).filter(Boolean)) {
    rules.push({
      mcpName: name,
      decision: 'allow',
      priority: effectivePriority('user', 100),
      modes: ALL_BUT_PLAN,
      source: 'settings mcp.allowed',
    });
  }
  return rules;
}
