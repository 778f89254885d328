import type { McpManager, McpServerStatus } from '@kodo/core/engine';
import { openBrowser as systemBrowser } from '../open-browser';
import type { SlashCommand } from '../ui/commands/types';

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

/**
 * `/mcp [list|desc|refresh [name]|auth <name>]` for the interactive UI, over the session's
 * servers (the UI wires it with `Runtime.mcp`). `desc` adds each tool's description; `auth`
 * signs in with OAuth (the URL is shown and the browser opened) and reconnects the server.
 */
export function createMcpSlashCommand(
  getManager: () => McpManager | undefined,
  options: { openBrowser?: (url: string, env: NodeJS.ProcessEnv) => Promise<void> } = {},
): SlashCommand {
  const open = options.openBrowser ?? systemBrowser;
  return {
    name: 'mcp',
    description: 'MCP servers: state and tools; refresh reconnects',
    subcommands: [
      { name: 'list', description: 'Servers, their state and tools' },
      { name: 'desc', description: 'The same, with tool descriptions' },
      { name: 'refresh', description: 'Reconnect (all servers, or the one named)' },
      { name: 'auth', description: 'Sign in to a remote server with OAuth (opens the browser)' },
    ],
    whileBusy: true,
    async run({ args, addItem, env }) {
      const manager = getManager();
      if (!manager) {
        addItem({ kind: 'panel', title: 'MCP', body: 'No MCP servers configured (settings "mcpServers").' });
        return;
      }
      const [action = 'list', name] = args.split(/\s+/).filter((word) => word !== '');
      if (action === 'auth') {
        if (!name) {
          addItem({ kind: 'panel', title: 'MCP', body: 'Usage: /mcp auth <server>' });
          return;
        }
        try {
          const result = await manager.signIn(name, {
            onAuthorizationUrl: (url) =>
              addItem({
                kind: 'panel',
                title: 'MCP',
                body: `Sign in to MCP server '${name}' in your browser. If it does not open, open this URL:\n${url}`,
              }),
            openBrowser: (url) => open(url, env ?? process.env),
          });
          addItem({
            kind: 'panel',
            title: 'MCP',
            body: `Signed in to MCP server '${name}'${result.scope ? ` (scope: ${result.scope})` : ''}.\n${formatStatus(
              manager.servers().filter((status) => status.name === name),
              { descriptions: false },
            )}`,
          });
        } catch (error) {
          addItem({
            kind: 'panel',
            title: 'MCP',
            body: `Signing in to '${name}' failed: ${(error as Error).message}`,
          });
        }
        return;
      }
      if (action === 'refresh' || action === 'reload') {
        try {
          await manager.refresh(name);
        } catch (error) {
          addItem({ kind: 'panel', title: 'MCP', body: (error as Error).message });
          return;
        }
      }
      addItem({
        kind: 'panel',
        title: 'MCP',
        body: formatStatus(manager.servers(), { descriptions: action === 'desc' }),
      });
    },
  };
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
