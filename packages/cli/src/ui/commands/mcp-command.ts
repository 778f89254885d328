import type { McpManager } from '@kodo/core/engine';
import { formatStatus } from '../../shared/mcp-status';
import { openBrowser as systemBrowser } from '../../shared/open-browser';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

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
  return terminalBuiltin('mcp', {
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
  });
}
