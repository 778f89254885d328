/**
 * `kodo mcp serve --tools builtin`: kodo's own file, search and shell tools as MCP tools, each
 * call run through the same scheduler as a model's call in `kodo -p` in the server's folder: the
 * policy engine (with the settings, `--policy` files and `--approval-mode` of the serve command),
 * BeforeTool/AfterTool hooks, the workspace boundary, control-file protection and the sandbox.
 * Never fewer checks than the CLI: what the policy says to ask is asked of the client through MCP
 * elicitation when it supports that, and refused otherwise; what it denies is denied.
 */

import type { Approvals, BuiltGenerator, CompletedToolCall, ContentGenerator, Part } from '@kodo/core/engine';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CliArgs } from '../shared/args';
import type { ServeContext, ServeSession } from './mcp-serve';

/** What `--tools builtin` exposes: reading, searching, editing and running commands. */
export const BUILTIN_SERVE_TOOL_NAMES = [
  'read_file',
  'list_directory',
  'glob',
  'grep_search',
  'replace',
  'write_file',
  'run_shell_command',
] as const;

const READ_ONLY = new Set(['read_file', 'list_directory', 'glob', 'grep_search']);

/** The values `--tools` takes. */
export const SERVE_TOOL_SETS = ['builtin'] as const;

export interface BuiltinToolServer {
  tools(): Promise<Tool[]>;
  has(name: string): boolean;
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  dispose(): Promise<void>;
}

/**
 * The built-in tools over one session in the server's folder, opened on first use (after the
 * client said whether it can answer approval requests).
 */
export function builtinToolServer(setup: {
  args: CliArgs;
  context: ServeContext;
  approvals: () => Approvals;
  open: (setup: {
    args: CliArgs;
    cwd: string;
    context: ServeContext;
    approvals: () => Approvals;
    generator: (model: string) => BuiltGenerator;
  }) => Promise<ServeSession>;
}): BuiltinToolServer {
  let opened: Promise<ServeSession> | undefined;
  let approvalChannel = false;
  const session = () => {
    opened ??= setup.open({
      args: setup.args,
      cwd: setup.context.cwd,
      context: setup.context,
      approvals: () => {
        const approvals = setup.approvals();
        approvalChannel = approvals.interactive;
        return approvals;
      },
      generator: toolsOnlyGenerator,
    });
    return opened;
  };
  const names = new Set<string>(BUILTIN_SERVE_TOOL_NAMES);
  return {
    has: (name) => names.has(name),
    async tools() {
      const cli = await session();
      return BUILTIN_SERVE_TOOL_NAMES.flatMap((name) => {
        const spec = cli.runtime.tools.get(name);
        if (!spec) return [];
        const declaration = spec.declaration();
        return [
          {
            name,
            title: spec.displayName,
            description: declaration.description,
            inputSchema: withoutSchedulingHint(declaration.parametersJsonSchema),
            annotations: READ_ONLY.has(name)
              ? { readOnlyHint: true, openWorldHint: false }
              : { readOnlyHint: false, destructiveHint: true, openWorldHint: name === 'run_shell_command' },
          },
        ];
      });
    },
    async call(name, args, signal) {
      const cli = await session();
      const stream = cli.session.runUserToolCall(name, args, signal, { requestedBy: 'client' });
      let next = await stream.next();
      while (!next.done) next = await stream.next();
      return toCallResult(next.value, { approvalChannel });
    },
    async dispose() {
      if (!opened) return;
      const cli = await opened.catch(() => undefined);
      await cli?.runtime.close();
    },
  };
}

/** The tools' session never asks a model anything, so it needs no provider and no key. */
function toolsOnlyGenerator(model: string): BuiltGenerator {
  const refuse = () => new Error('The built-in tools of kodo mcp serve do not call a model.');
  const generator: ContentGenerator = {
    provider: 'none',
    generateContent: () => Promise.reject(refuse()),
    // biome-ignore lint/correctness/useYield: it refuses before producing anything.
    async *generateContentStream() {
      throw refuse();
    },
    countTokens: () => Promise.reject(refuse()),
  };
  return { generator, model, flush: async () => {} };
}

/** `wait_for_previous` orders a model's parallel calls; an MCP client has no such turn. */
function withoutSchedulingHint(schema: Record<string, unknown>): Tool['inputSchema'] {
  const properties = { ...((schema.properties as Record<string, object> | undefined) ?? {}) };
  delete properties.wait_for_previous;
  return { ...schema, type: 'object', properties };
}

/** A completed call as MCP content; refusals and failures are `isError` results with the reason. */
export function toCallResult(
  completed: CompletedToolCall,
  options: { approvalChannel: boolean },
): CallToolResult {
  const { response } = completed;
  if (response.status !== 'success') {
    let message = response.error?.message ?? (response.resultDisplay || `${response.name} did not run.`);
    // Refused for want of approval: by the policy, at the approval step, or hidden from this mode
    // (answered to a model as an undeclared tool, but this caller named a tool it was offered).
    const refused =
      response.error?.type === 'policy_violation' ||
      /requires user confirmation|is not allowed in this mode/.test(message);
    if (refused && !options.approvalChannel) {
      message += ` kodo mcp serve cannot ask anyone for approval (the MCP client does not support elicitation), so what the policy would ask about is refused. Allow it with a policy file (kodo mcp serve --tools builtin --policy <file>) or an approval mode (--approval-mode auto_edit|yolo).`;
    }
    return { content: [{ type: 'text', text: message }], isError: true };
  }
  const content: CallToolResult['content'] = [];
  for (const part of response.responseParts) content.push(...partContent(part));
  if (content.length === 0) content.push({ type: 'text', text: response.resultDisplay });
  return { content };
}

function partContent(part: Part): CallToolResult['content'] {
  if (part.functionResponse) {
    const body = part.functionResponse.response as { output?: unknown; error?: unknown } | undefined;
    const value = body?.output ?? body?.error;
    if (value === undefined) return [];
    return [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }];
  }
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    if (mimeType.startsWith('image/')) return [{ type: 'image', data, mimeType }];
    if (mimeType.startsWith('audio/')) return [{ type: 'audio', data, mimeType }];
    return [{ type: 'resource', resource: { uri: 'kodo://attachment', mimeType, blob: data } }];
  }
  return part.text ? [{ type: 'text', text: part.text }] : [];
}
