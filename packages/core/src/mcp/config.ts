/**
 * `mcpServers` settings → the servers kodo connects to. The entries are the common format shared
 * by Gemini CLI and other MCP clients; kodo's and `.gemini`'s settings read the
 * same way. Values that name environment variables (`$VAR`, `${VAR}`, `${VAR:-default}`) are
 * expanded here, against the full environment, so a server can get a token the model never sees.
 */

import type { McpOAuthSettings, McpServerSettings } from '../config/settings-types';
import { stringList } from './config-check';

export type { McpGlobalSettings, McpOAuthSettings, McpServerSettings } from '../config/settings-types';

export type McpTransportConfig =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  /** `http`: Streamable HTTP; `sse`: the older SSE transport; `auto`: HTTP, then SSE on failure. */
  | { kind: 'http' | 'sse' | 'auto'; url: string; headers: Record<string, string> };

export interface McpServerConfig {
  name: string;
  transport: McpTransportConfig;
  /** For each request (tool calls included). */
  requestTimeoutMs: number;
  /** For connecting and listing what the server offers. */
  connectTimeoutMs: number;
  trust: boolean;
  /** Original tool names (an entry `name(...)` counts as `name`); absent = every tool. */
  includeTools?: string[];
  excludeTools: string[];
  description?: string;
  /**
   * The entry's `oauth` object with `$VAR`s expanded (a client secret can come from the
   * environment). Absent: OAuth is still used when `kodo mcp auth` stored tokens for the server.
   */
  oauth?: McpOAuthSettings;
}

/**
 * Gemini CLI's default for both connecting and requests. kodo keeps it for requests (a tool may
 * legitimately run for minutes) but bounds discovery by `DEFAULT_CONNECT_TIMEOUT_MS` when the
 * entry sets no `timeout`: a server that hangs while starting must not hold up a headless run
 * for ten minutes.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;

export interface ResolvedMcpServers {
  servers: McpServerConfig[];
  /** Entries that could not be used, one line each (shown as warnings). */
  problems: string[];
}

/**
 * The servers to connect, from the entries that `gateMcpServers` (config-check.ts) let through.
 * A broken entry is reported and skipped; the others still connect.
 */
export function resolveMcpServers(input: {
  servers: Record<string, unknown> | undefined;
  env: NodeJS.ProcessEnv;
}): ResolvedMcpServers {
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(input.servers ?? {})) {
    const resolved = resolveServer(name, raw, input.env);
    if (typeof resolved === 'string') problems.push(resolved);
    else servers.push(resolved);
  }
  return { servers, problems };
}

function resolveServer(name: string, raw: unknown, env: NodeJS.ProcessEnv): McpServerConfig | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return `MCP server '${name}': the entry must be an object.`;
  }
  const entry = raw as McpServerSettings;
  const expand = (value: string) => expandEnvVars(value, env);
  const transport = transportOf(entry, expand);
  if (!transport) {
    return `MCP server '${name}': set "command" (stdio), "url" or "httpUrl".`;
  }
  const timeout =
    typeof entry.timeout === 'number' && Number.isFinite(entry.timeout) && entry.timeout > 0
      ? entry.timeout
      : undefined;
  const include =
    entry.includeTools === undefined ? undefined : stringList(entry.includeTools).map(baseToolName);
  return {
    name,
    transport,
    requestTimeoutMs: timeout ?? DEFAULT_REQUEST_TIMEOUT_MS,
    connectTimeoutMs: timeout ?? DEFAULT_CONNECT_TIMEOUT_MS,
    trust: entry.trust === true,
    ...(include ? { includeTools: include } : {}),
    excludeTools: stringList(entry.excludeTools).map(baseToolName),
    ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
    ...(oauthOf(entry.oauth, expand) ?? {}),
  };
}

function oauthOf(raw: unknown, expand: (value: string) => string): { oauth: McpOAuthSettings } | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const entry = raw as Record<string, unknown>;
  const oauth: McpOAuthSettings = {};
  if (typeof entry.enabled === 'boolean') oauth.enabled = entry.enabled;
  for (const key of ['clientId', 'clientSecret', 'authorizationUrl', 'tokenUrl', 'redirectUri'] as const) {
    const value = entry[key];
    if (typeof value === 'string' && value !== '') oauth[key] = expand(value);
  }
  if (typeof entry.tokenParamName === 'string') oauth.tokenParamName = entry.tokenParamName;
  if (Array.isArray(entry.scopes)) oauth.scopes = stringList(entry.scopes);
  if (Array.isArray(entry.audiences)) oauth.audiences = stringList(entry.audiences);
  return { oauth };
}

function transportOf(
  entry: McpServerSettings,
  expand: (value: string) => string,
): McpTransportConfig | undefined {
  const headers = stringRecord(entry.headers, expand);
  if (typeof entry.httpUrl === 'string' && entry.httpUrl !== '') {
    return { kind: 'http', url: expand(entry.httpUrl), headers };
  }
  if (typeof entry.url === 'string' && entry.url !== '') {
    const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : undefined;
    const kind = type === 'sse' ? 'sse' : type && HTTP_TYPES.has(type) ? 'http' : 'auto';
    return { kind, url: expand(entry.url), headers };
  }
  if (typeof entry.command === 'string' && entry.command.trim() !== '') {
    return {
      kind: 'stdio',
      command: expand(entry.command),
      args: stringList(entry.args).map(expand),
      env: stringRecord(entry.env, expand),
      ...(typeof entry.cwd === 'string' && entry.cwd !== '' ? { cwd: expand(entry.cwd) } : {}),
    };
  }
  return undefined;
}

const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamable_http', 'streamablehttp']);

/** `name(...)` in `includeTools` (Gemini CLI accepts it) names the tool `name`. */
function baseToolName(entry: string): string {
  const paren = entry.indexOf('(');
  return (paren > 0 ? entry.slice(0, paren) : entry).trim();
}

/** Whether a server's tool (by its original name) is offered: exclusion wins over inclusion. */
export function isToolEnabled(config: McpServerConfig, toolName: string): boolean {
  if (config.excludeTools.includes(toolName)) return false;
  return config.includeTools === undefined || config.includeTools.includes(toolName);
}

/**
 * `${VAR:-default}`, `${VAR}` and `$VAR` replaced from `env`. A variable that is not set and has
 * no default is left as written, so a typo shows up in the error rather than as an empty value.
 */
export function expandEnvVars(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
      const value = env[(braced ?? bare)!];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      return value ?? whole;
    },
  );
}

function stringRecord(value: unknown, expand: (value: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') out[key] = expand(item);
    else if (typeof item === 'number' || typeof item === 'boolean') out[key] = String(item);
  }
  return out;
}
