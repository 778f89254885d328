import type { McpServerStatus } from '@kodo/core/engine';

/** How MCP servers are shown: `kodo mcp list` and `/mcp`. */

/** One server: `✓ name (where) - connected · 3 tools, 1 prompt`, its tools on the next line. */
export function formatServer(status: McpServerStatus, where?: string): string {
  const mark = status.state === 'connected' ? '✓' : status.state === 'connecting' ? '…' : '✗';
  const head = `${mark} ${status.name}${where ? ` (${where})` : ''} - ${status.state}`;
  if (status.state !== 'connected') return `${head}${status.error ? `: ${status.error}` : ''}`;
  const counts = [
    plural(status.tools.length, 'tool'),
    ...(status.promptCount > 0 ? [plural(status.promptCount, 'prompt')] : []),
    ...(status.resourceCount > 0 ? [plural(status.resourceCount, 'resource')] : []),
  ].join(', ');
  const tools = status.tools.map((tool) => tool.name).join(', ');
  return `${head} · ${counts}${status.trust ? ' (trusted)' : ''}${tools ? `\n    ${tools}` : ''}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function formatStatus(servers: McpServerStatus[], options: { descriptions: boolean }): string {
  return servers
    .map((status) => {
      if (!options.descriptions || status.state !== 'connected') return formatServer(status);
      const head = formatServer({ ...status, tools: [] });
      return [head, ...status.tools.map((tool) => `    ${tool.name}: ${tool.description}`)].join('\n');
    })
    .join('\n');
}
