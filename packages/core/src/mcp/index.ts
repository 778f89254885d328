/**
 * The MCP client: loaded on demand (see `load.ts`) only when settings configure a server, so a
 * run without MCP never loads any of it.
 */
import type { PolicyRule } from '../scheduler/policy/rule';
import type { ToolRegistry } from '../tools/registry';
import { type McpGlobalSettings, resolveMcpServers } from './config';
import { McpManager } from './manager';
import { mcpPolicyRules } from './policy-rules';
import type { SchemaTarget } from './schema';

export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  expandEnvVars,
  isToolEnabled,
  type McpGlobalSettings,
  type McpOAuthSettings,
  type McpServerConfig,
  type McpServerSettings,
  type McpTransportConfig,
  resolveMcpServers,
} from './config';
export { type McpServerState, type McpTransportKind, McpUnavailableError } from './connection';
export type {
  McpPromptArgument,
  McpPromptInfo,
  McpPromptMessage,
  McpResourceContents,
  McpResourceInfo,
  McpToolInfo,
} from './discovery';
export {
  McpManager,
  type McpManagerEvent,
  type McpManagerOptions,
  type McpServerStatus,
  type McpToolStatus,
} from './manager';
export {
  MAX_TOOL_NAME_LENGTH,
  mcpDisplayName,
  mcpToolName,
  sanitizeToolName,
  uniqueMcpToolName,
} from './naming';
export {
  DEFAULT_SIGN_IN_TIMEOUT_MS,
  type McpSignInOptions,
  type McpSignInResult,
  signInToMcpServer,
} from './oauth-flow';
export { McpAuthRequiredError, McpOAuthProvider, sessionAuthProvider } from './oauth-provider';
export { type McpOAuthRecord, McpOAuthStore, mcpOAuthDir } from './oauth-store';
export { mcpPolicyRules } from './policy-rules';
export {
  type McpPromptCommand,
  type ParsedPromptArguments,
  parsePromptArguments,
  promptCommands,
  promptHelp,
  promptText,
} from './prompts';
export {
  createResourceTools,
  type ExpandedResourceReferences,
  expandResourceReferences,
  findResourceReferences,
  LIST_MCP_RESOURCES,
  type McpResourceSource,
  READ_MCP_RESOURCE,
} from './resources';
export { convertToolResult, MCP_TOOL_ERROR, type McpCallResult, type McpContentBlock } from './results';
export { cleanToolSchema, type SchemaTarget, schemaTargetForModel } from './schema';
export { createMcpTool, MCP_SERVER_UNAVAILABLE, type McpTool, type McpToolOptions } from './tool-adapter';

export interface StartMcpOptions {
  /** The `mcpServers` entries that start (`gateMcpServers` decides which). */
  servers: Record<string, unknown> | undefined;
  /** `mcp` of the merged settings: its `allowed` and `excluded` become policy rules. */
  mcp?: McpGlobalSettings | undefined;
  /** The full environment, for `$VAR` in entries (a server's token comes from here). */
  env: NodeJS.ProcessEnv;
  /** The environment stdio servers start from: without secrets. */
  baseEnv: NodeJS.ProcessEnv;
  cwd: string;
  registry: ToolRegistry;
  /** Gets the rules `trust`, `mcp.allowed` and `mcp.excluded` imply. */
  policy?: { addRules(rules: PolicyRule[]): void };
  clientInfo?: { name: string; version: string };
  schemaTarget?: () => SchemaTarget;
  /** Where OAuth sign-ins are kept (`~/.kodo/mcp-oauth`); absent = remote servers get no OAuth. */
  oauthDir?: string;
}

/**
 * Resolves the settings, adds their policy rules and starts connecting in the background.
 * `problems` are settings entries that could not be used (to show as warnings).
 */
export function startMcp(options: StartMcpOptions): { manager: McpManager; problems: string[] } {
  const { servers, problems } = resolveMcpServers({ servers: options.servers, env: options.env });
  options.policy?.addRules(mcpPolicyRules({ servers: options.servers, mcp: options.mcp }));
  const manager = new McpManager({
    servers,
    registry: options.registry,
    baseEnv: options.baseEnv,
    cwd: options.cwd,
    ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    ...(options.schemaTarget ? { schemaTarget: options.schemaTarget } : {}),
    ...(options.oauthDir ? { oauthDir: options.oauthDir } : {}),
  });
  manager.start();
  return { manager, problems };
}
