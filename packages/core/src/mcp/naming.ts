/**
 * Names MCP tools get in kodo: `mcp_<server>_<tool>`, so policy rules and hook
 * matchers can say `mcp_<server>_*`.
 *
 * *Deviation:* Gemini CLI keeps `.` and `:` and shortens long names to `first30...last30`. OpenAI
 * and Anthropic accept only `[A-Za-z0-9_-]` in function names, and the `...` form can map two
 * long names to one, so kodo replaces every other character with `_` and shortens to the first
 * 54 characters plus `_` and a hash of the full server and tool names: stable across runs, and
 * different for different tools.
 */

import { fnv1a } from '../utils/fnv1a';

export const MAX_TOOL_NAME_LENGTH = 63;
const HASH_LENGTH = 8;

/** Characters providers reject in a function name become `_`. */
export function sanitizeToolName(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** The name the model sees for `tool` of `server`. */
export function mcpToolName(server: string, tool: string): string {
  const joined = sanitizeToolName(`${server}_${tool}`);
  const name = joined.startsWith('mcp_') ? joined : `mcp_${joined}`;
  return name.length <= MAX_TOOL_NAME_LENGTH ? name : withHashSuffix(name, server, tool);
}

/**
 * A second name for a tool whose name is already taken (two servers or tools that differ only in
 * characters `sanitizeToolName` replaced): the same prefix with the hash of its origin.
 */
export function uniqueMcpToolName(server: string, tool: string, taken: (name: string) => boolean): string {
  const name = mcpToolName(server, tool);
  if (!taken(name)) return name;
  const hashed = withHashSuffix(name, server, tool);
  if (!taken(hashed)) return hashed;
  // Two origins with the same hash: astronomically unlikely, but never register over a tool.
  for (let n = 2; ; n += 1) {
    const candidate = `${hashed.slice(0, MAX_TOOL_NAME_LENGTH - String(n).length - 1)}_${n}`;
    if (!taken(candidate)) return candidate;
  }
}

function withHashSuffix(name: string, server: string, tool: string): string {
  const suffix = `_${fnv1a(`${server}\u0000${tool}`).toString(16).padStart(HASH_LENGTH, '0')}`;
  const head = name.slice(0, Math.min(name.length, MAX_TOOL_NAME_LENGTH - suffix.length));
  return `${head}${suffix}`;
}

/** How a person sees the tool: `<tool> (<server> MCP Server)`. */
export function mcpDisplayName(server: string, tool: string): string {
  return `${tool} (${server} MCP Server)`;
}
