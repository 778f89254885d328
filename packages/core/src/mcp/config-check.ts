/** Whether settings configure any MCP server (checked before loading the MCP client). */
export function hasMcpServers(servers: unknown): boolean {
  return servers !== null && typeof servers === 'object' && Object.keys(servers).length > 0;
}
