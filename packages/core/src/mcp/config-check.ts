// What the settings say about MCP servers, decided before the MCP client (and its SDK) loads.
import type { McpGlobalSettings } from '../config/settings-types';

/** Whether settings configure any MCP server (checked before loading the MCP client). */
export function hasMcpServers(servers: unknown): boolean {
  return servers !== null && typeof servers === 'object' && Object.keys(servers).length > 0;
}

/** Why a configured server does not start: `mcp.excluded`, `mcp.allowed`, or the folder's trust. */
export type McpServerHold = 'excluded' | 'not-allowed' | 'untrusted';

/**
 * Which configured servers start here, and why each other one does not. `mcp.excluded` wins over
 * `mcp.allowed` (when set, only the names it lists start); in an untrusted folder no stdio
 * server starts, since a project's settings could name any command. The one place this is
 * decided: a session's start and `kodo mcp list` both ask here.
 */
export function gateMcpServers(input: {
  servers: Record<string, unknown> | undefined;
  mcp?: McpGlobalSettings | undefined;
  trusted: boolean;
}): { startable: Record<string, unknown>; held: Map<string, McpServerHold> } {
  const excluded = new Set(stringList(input.mcp?.excluded));
  const allowed = input.mcp?.allowed === undefined ? undefined : new Set(stringList(input.mcp.allowed));
  const startable: Record<string, unknown> = {};
  const held = new Map<string, McpServerHold>();
  for (const [name, entry] of Object.entries(input.servers ?? {})) {
    if (excluded.has(name)) held.set(name, 'excluded');
    else if (allowed && !allowed.has(name)) held.set(name, 'not-allowed');
    else if (!input.trusted && typeof (entry as { command?: unknown } | null)?.command === 'string')
      held.set(name, 'untrusted');
    else startable[name] = entry;
  }
  return { startable, held };
}

/** The strings of a settings list; anything else in it (or a value that is not a list) is left out. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
