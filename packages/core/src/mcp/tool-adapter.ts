/**
 * An MCP server's tool as a kodo `Tool`: named `mcp_<server>_<tool>`, declared with its input
 * schema cleaned for the provider in use, validated lightly (the server validates for real), run
 * through the server's connection. A server that is gone answers with an error the model can act
 * on, never with a crash.
 */
import type { FunctionDeclaration } from '../contracts/messages';
import type {
  BuildResult,
  ExecuteOptions,
  Tool,
  ToolContext,
  ToolInvocation,
  ToolResult,
} from '../tools/tool';
import { McpUnavailableError } from './connection';
import type { McpToolInfo } from './discovery';
import { mcpDisplayName } from './naming';
import { convertToolResult, type McpCallResult } from './results';
import { cleanToolSchema, type SchemaTarget } from './schema';

/** What an MCP tool needs of its server. */
export interface McpToolBackend {
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress?: (message: string) => void },
  ): Promise<McpCallResult>;
}

/** A Tool that also says which server it comes from (policy rules match `mcpName` and annotations). */
export interface McpTool extends Tool {
  readonly serverName: string;
  /** The tool's own name on its server. */
  readonly serverToolName: string;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

export interface McpToolOptions {
  /** The name the model sees (see `uniqueMcpToolName`). */
  name: string;
  serverName: string;
  info: McpToolInfo;
  backend: McpToolBackend;
  /** The provider the declaration is for; read on every request, since the model may change. */
  schemaTarget: () => SchemaTarget;
}

export const MCP_SERVER_UNAVAILABLE = 'mcp_server_unavailable';

export function createMcpTool(options: McpToolOptions): McpTool {
  const { info, serverName } = options;
  const declarations = new Map<SchemaTarget, FunctionDeclaration>();
  const description =
    info.description ?? info.title ?? `The ${info.name} tool of the ${serverName} MCP server.`;
  const tool: McpTool = {
    name: options.name,
    displayName: mcpDisplayName(serverName, info.name),
    // Servers declare what a tool does only as hints; kodo does not trust them to skip approval.
    kind: 'other',
    description,
    serverName,
    serverToolName: info.name,
    ...(info.annotations ? { annotations: info.annotations } : {}),
    declaration() {
      const target = options.schemaTarget();
      let declaration = declarations.get(target);
      if (!declaration) {
        declaration = {
          name: options.name,
          description,
          parametersJsonSchema: cleanToolSchema(info.inputSchema, target),
        };
        declarations.set(target, declaration);
      }
      return declaration;
    },
    build(args: unknown, _ctx: ToolContext): BuildResult {
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        return { ok: false, error: { type: 'invalid_tool_params', message: 'params must be object' } };
      }
      const { wait_for_previous: _ignored, ...params } = args as Record<string, unknown>;
      const missing = requiredProperties(info.inputSchema).filter((name) => params[name] === undefined);
      if (missing.length > 0) {
        return {
          ok: false,
          error: {
            type: 'invalid_tool_params',
            message: missing.map((name) => `params must have required property '${name}'`).join('; '),
          },
        };
      }
      return { ok: true, invocation: invocationOf(tool, options, params) };
    },
  };
  return tool;
}

function invocationOf(
  tool: McpTool,
  options: McpToolOptions,
  params: Record<string, unknown>,
): ToolInvocation {
  const toolName = options.info.name;
  const argsText = JSON.stringify(params);
  return {
    tool,
    params,
    describe: () => `${toolName} ${shorten(argsText, 200)}`,
    locations: () => [],
    async confirmationDetails() {
      return {
        kind: 'info',
        title: `Confirm MCP tool: ${toolName} (${options.serverName})`,
        prompt: `Allow the MCP server '${options.serverName}' to run '${toolName}' with ${shorten(argsText, 2_000)}?`,
        serverName: options.serverName,
      };
    },
    async execute(execute: ExecuteOptions): Promise<ToolResult> {
      try {
        const result = await options.backend.callTool(toolName, params, {
          signal: execute.signal,
          ...(execute.onOutput ? { onProgress: execute.onOutput } : {}),
        });
        return convertToolResult({ toolName, args: params }, result);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const type = error instanceof McpUnavailableError ? MCP_SERVER_UNAVAILABLE : 'execution_failed';
        const text = type === MCP_SERVER_UNAVAILABLE ? message : `MCP tool '${toolName}' failed: ${message}`;
        return { llmContent: text, returnDisplay: text, error: { type, message: text } };
      }
    },
  };
}

function requiredProperties(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const required = (schema as { required?: unknown }).required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
