/**
 * The MCP client module, imported on demand: bundlers put it (and the SDK behind it) in a chunk
 * of its own, so front ends that import the engine pay nothing for MCP until a server is
 * configured.
 */
export type McpModule = typeof import('./index');

export function loadMcpModule(): Promise<McpModule> {
  return import('./index');
}

/** Whether settings configure any MCP server (checked before loading anything). */
export function hasMcpServers(servers: unknown): boolean {
  return servers !== null && typeof servers === 'object' && Object.keys(servers).length > 0;
}
