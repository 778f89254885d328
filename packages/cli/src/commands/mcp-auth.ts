/**
 * `kodo mcp auth <name>`: signs in to a remote MCP server with OAuth. Prints the authorization
 * URL, opens the browser, waits for the redirect on a loopback port, and stores the tokens in
 * `~/.kodo/mcp-oauth/<name>.json` (docs/mcp.md). `--sign-out` forgets them. Sessions use and
 * refresh what is stored; they never sign in by themselves.
 */
import { loadMcpModule } from '@kodo/core/engine';
import { ExitCode } from '../shared/exit-codes';
import { openBrowser } from '../shared/open-browser';
import { settingsForFolder } from '../shared/trust-gate';
import type { McpCommandContext } from './mcp';

export async function runMcpAuth(context: McpCommandContext & { words: string[] }): Promise<number> {
  const signOut = context.words.includes('--sign-out');
  const names = context.words.filter((word) => word !== '--sign-out');
  const unknown = names.find((word) => word.startsWith('-'));
  if (unknown || names.length !== 1) {
    context.stderr.write(
      `[ERROR] ${unknown ? `Unknown option: ${unknown}` : 'kodo mcp auth needs one server name'} (see kodo mcp auth --help)\n`,
    );
    return ExitCode.error;
  }
  const name = names[0]!;
  const settings = settingsForFolder(context).loaded.merged;
  const entry = settings.mcpServers?.[name];
  if (entry === undefined) {
    const known = Object.keys(settings.mcpServers ?? {});
    context.stderr.write(
      `[ERROR] No MCP server '${name}' in the settings${known.length > 0 ? ` (configured: ${known.join(', ')})` : ''}.\n`,
    );
    return ExitCode.error;
  }
  const mcp = await loadMcpModule();
  const store = new mcp.McpOAuthStore(mcp.mcpOAuthDir(context.env));
  if (signOut) {
    store.remove(name);
    context.stdout.write(`Signed out of MCP server '${name}'.\n`);
    return ExitCode.ok;
  }
  const { servers, problems } = mcp.resolveMcpServers({ servers: { [name]: entry }, env: context.env });
  const config = servers[0];
  if (!config) {
    context.stderr.write(`[ERROR] ${problems[0] ?? `MCP server '${name}' cannot be used.`}\n`);
    return ExitCode.error;
  }
  const abort = new AbortController();
  const onInterrupt = () => abort.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const result = await mcp.signInToMcpServer({
      config,
      store,
      signal: abort.signal,
      onAuthorizationUrl: (url) => {
        context.stdout.write(
          `Sign in to MCP server '${name}' in your browser. If it does not open, open this URL:\n\n  ${url}\n\nWaiting for the browser...\n`,
        );
      },
      openBrowser: (url) => openBrowser(url, context.env),
    });
    const expiry = result.expiresAt
      ? `; the access token expires ${new Date(result.expiresAt).toISOString()}`
      : '';
    const refresh = result.hasRefreshToken ? ' and is refreshed automatically' : '';
    context.stdout.write(
      `Signed in to MCP server '${name}'${result.scope ? ` (scope: ${result.scope})` : ''}${expiry}${expiry ? refresh : ''}. Saved in ${store.path(name)}.\n`,
    );
    return ExitCode.ok;
  } catch (error) {
    context.stderr.write(`[ERROR] Signing in to MCP server '${name}' failed: ${(error as Error).message}\n`);
    return ExitCode.error;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
