/**
 * Where kodo keeps what an MCP server's OAuth sign-in produced: one file per server under
 * `~/.kodo/mcp-oauth/` (`<server>.json`, mode 0600 in a 0700 folder), holding the registered
 * client, the tokens and the discovered endpoints. Nothing else reads or prints these files:
 * tokens never reach logs, session files or telemetry.
 *
 * A record is bound to the server URL it was obtained for. A settings file that points the same
 * server name at another URL (a project could) gets nothing: the tokens are not sent elsewhere.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { kodoHome } from '../config/paths';
import { writePrivateFile } from '../utils/private-file';

export interface McpOAuthRecord {
  /** The MCP server URL the record was obtained for. */
  serverUrl: string;
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the access token expires (ms since the epoch), from the token response's `expires_in`. */
  expiresAt?: number;
  discoveryState?: OAuthDiscoveryState;
  /** The redirect URI the client was registered with. */
  redirectUrl?: string;
}

/** `~/.kodo/mcp-oauth` (under `$KODO_HOME` when set). */
export function mcpOAuthDir(env: NodeJS.ProcessEnv): string {
  return join(kodoHome(env), 'mcp-oauth');
}

export class McpOAuthStore {
  constructor(private readonly dir: string) {}

  /** The file of one server; names are reduced to characters safe in a file name. */
  path(serverName: string): string {
    return join(this.dir, `${serverName.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
  }

  /** The record for `serverUrl`, or undefined (none, unreadable, or obtained for another URL). */
  read(serverName: string, serverUrl: string): McpOAuthRecord | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path(serverName), 'utf8'));
    } catch {
      return undefined;
    }
    if (parsed === null || typeof parsed !== 'object') return undefined;
    const record = parsed as McpOAuthRecord;
    return record.serverUrl === serverUrl ? record : undefined;
  }

  /** Whether a sign-in is stored for the server at this URL. */
  has(serverName: string, serverUrl: string): boolean {
    return this.read(serverName, serverUrl) !== undefined;
  }

  /** Merges `change` into the server's record (a record for another URL is replaced). */
  update(serverName: string, serverUrl: string, change: Partial<Omit<McpOAuthRecord, 'serverUrl'>>): void {
    const record: McpOAuthRecord = { ...(this.read(serverName, serverUrl) ?? {}), ...change, serverUrl };
    for (const key of Object.keys(record) as (keyof McpOAuthRecord)[]) {
      if (record[key] === undefined) delete record[key];
    }
    // A crash never leaves half a token file, and the mode is set before any secret is in it.
    writePrivateFile(this.path(serverName), `${JSON.stringify(record, null, 2)}\n`);
  }

  /** Forgets the server's sign-in. */
  remove(serverName: string): void {
    rmSync(this.path(serverName), { force: true });
  }
}
