import type { Settings } from '../config/settings';
import { gateMcpServers, hasMcpServers } from '../mcp/config-check';
import type { McpManager } from '../mcp/index';
import { loadMcpModule } from '../on-demand';
import type { PolicyRule } from '../scheduler/policy/rule';
import type { ToolRegistry } from '../tools/registry';
import { sanitizeEnv } from '../utils/env';

export interface McpSetup {
  settings: Settings;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Untrusted folders start no stdio server: a project could name any command. */
  trusted: boolean;
  tools: ToolRegistry;
  policy: { addRules(rules: PolicyRule[]): void };
  /** The model of the session in use, read at each request (fallback, /model). */
  model: () => string;
  /** Who kodo says it is to the servers. */
  clientInfo: { name: string; version: string };
  /**
   * `wait`: return once every server is connected or has failed (each within its timeout), so
   * the first request declares every tool (headless). `background`: return at once (the UI).
   */
  discovery: 'wait' | 'background';
  /** Servers that could not be used, failed or went away; absent = nobody is told (the UI subscribes). */
  onWarning?: (message: string) => void;
}

/**
 * Starts the configured MCP servers; undefined (and nothing loaded) when settings name none.
 * Their tools join `tools` as the servers answer; the policy gets the rules `trust`,
 * `mcp.allowed` and `mcp.excluded` imply.
 */
export async function startMcpServers(setup: McpSetup): Promise<McpManager | undefined> {
  const configured = setup.settings.mcpServers;
  if (!hasMcpServers(configured)) return undefined;
  const { startable, held } = gateMcpServers({
    servers: configured,
    mcp: setup.settings.mcp,
    trusted: setup.trusted,
  });
  // Servers the settings turn off are off without a word; one the folder's trust holds back is
  // worth a line, since trusting the folder would start it.
  for (const [name, why] of held) {
    if (why === 'untrusted') {
      setup.onWarning?.(
        `MCP server '${name}' was not started: stdio servers do not run in an untrusted folder.`,
      );
    }
  }
  const mcp = await loadMcpModule();
  const { manager, problems } = mcp.startMcp({
    servers: startable,
    mcp: setup.settings.mcp,
    env: setup.env,
    baseEnv: sanitizeEnv(setup.env),
    cwd: setup.cwd,
    registry: setup.tools,
    policy: setup.policy,
    clientInfo: setup.clientInfo,
    // The model may change during the session (fallback, /model): read it at each request.
    schemaTarget: () => mcp.schemaTargetForModel(setup.model()),
    // Sign-ins `kodo mcp auth` stored; a session only uses and refreshes them.
    oauthDir: mcp.mcpOAuthDir(setup.env),
  });
  const warn = setup.onWarning;
  if (warn) {
    for (const problem of problems) warn(problem);
    manager.subscribe((event) => {
      if (event.type !== 'server_state') return;
      if (event.state === 'failed') warn(`MCP server '${event.server}' failed to connect: ${event.error}`);
      if (event.state === 'disconnected' && event.previous === 'connected') {
        warn(
          `MCP server '${event.server}' disconnected (${event.error}). Its tools answer with an error until /mcp refresh reconnects it.`,
        );
      }
    });
  }
  if (setup.discovery === 'wait') await manager.waitForDiscovery();
  return manager;
}
