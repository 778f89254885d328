/**
 * `kodo mcp serve`: kodo as a stdio MCP server, so another agent can hand it whole tasks. Two
 * tools, like Codex's pair: `kodo` runs a task (a prompt in a folder, with a model, approval
 * mode and turn limit) and returns the final answer and the session id; `kodo-reply` continues
 * that session. Each task runs under the same settings, policy, hooks and sandbox as `kodo -p`
 * there, and its prompt means what it means in every front end (mcp-serve-task.ts: `@file`,
 * custom commands, `@agent`, `!command`). A call that needs approval is asked of the client
 * through MCP elicitation when the client supports it; otherwise it is refused, as in headless
 * mode (never run unasked). Progress notifications follow the task while it runs.
 *
 * `--tools builtin` also exposes kodo's read, search, edit and shell tools directly, behind the
 * same checks (mcp-serve-tools.ts).
 */
import { isAbsolute, resolve } from 'node:path';
import {
  type AgentEvent,
  type Approvals,
  type ConfirmHandler,
  newSessionId,
  type Runtime,
  type RuntimeOptions,
  type Session,
} from '@kodo/core/engine';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ArgsError, type CliArgs, parseCliArgs } from '../shared/args';
import { FatalError } from '../shared/exit-codes';
import { asFatalError, createCliRuntime } from '../shared/runtime-setup';
import { gateFolderTrust } from '../shared/trust-gate';
import { KODO_VERSION } from '../shared/version';
import { runTask, type ServeTask, taskError } from './mcp-serve-task';
import { type BuiltinToolServer, builtinToolServer, SERVE_TOOL_SETS } from './mcp-serve-tools';

const APPROVAL_MODES = ['default', 'auto_edit', 'plan', 'yolo'] as const;

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    sessionId: { type: 'string', description: 'Pass to kodo-reply to continue' },
    content: { type: 'string', description: 'The final answer' },
    outcome: {
      type: 'string',
      description: 'How the task ended: completed, cancelled, budget, turn_limit, …',
    },
  },
  required: ['sessionId', 'content', 'outcome'],
} as const;

export const SERVE_TOOLS = [
  {
    name: 'kodo',
    title: 'kodo',
    description:
      'Run a kodo task: an autonomous coding agent works on the prompt in the folder (reads, searches, edits, runs commands under its approval policy) and returns its final answer and a session id for kodo-reply.',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'The task' },
        cwd: {
          type: 'string',
          description: "The project folder (relative to the server's folder); default: the server's",
        },
        model: { type: 'string', description: 'Model as provider:model (default: kodo settings)' },
        'approval-mode': {
          type: 'string',
          enum: [...APPROVAL_MODES],
          description:
            'default asks before edits and commands (through elicitation, or refused); yolo asks nothing',
        },
        'max-turns': { type: 'integer', minimum: 1, description: 'Model turns at most for this task' },
      },
      required: ['prompt'],
      additionalProperties: false,
    },
    outputSchema: OUTPUT_SCHEMA,
  },
  {
    name: 'kodo-reply',
    title: 'kodo reply',
    description: 'Continue a kodo task started with the kodo tool: send the next prompt to its session.',
    inputSchema: {
      type: 'object',
      properties: {
        sessionId: { type: 'string', description: 'The sessionId the kodo tool returned' },
        prompt: { type: 'string', description: 'The next prompt' },
      },
      required: ['sessionId', 'prompt'],
      additionalProperties: false,
    },
    outputSchema: OUTPUT_SCHEMA,
  },
];

/** A session of the server with its own runtime (its folder's settings); closing the runtime ends it. */
export interface ServeSession {
  runtime: Runtime;
  session: Session;
}

export interface ServeContext {
  /** The words after `serve`: kodo's own flags for every task (`--fake-responses`, `--policy`, …). */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stderr: NodeJS.WritableStream;
}

export async function runMcpServe(context: ServeContext): Promise<number> {
  let base: CliArgs;
  let toolSets: string[];
  try {
    const own = serveOptions(context.args);
    toolSets = own.toolSets;
    base = parseCliArgs(own.rest);
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    context.stderr.write(`kodo mcp serve: ${error.message}\n`);
    return 1;
  }
  const tasks = new Map<string, ServeTask>();
  let builtin: BuiltinToolServer | undefined;
  const server = new Server(
    { name: 'kodo', title: 'kodo', version: KODO_VERSION },
    {
      capabilities: { tools: {} },
      instructions: 'kodo runs coding tasks: call kodo with a prompt, then kodo-reply with its sessionId.',
    },
  );
  if (toolSets.includes('builtin')) {
    builtin = builtinToolServer({
      args: base,
      context,
      approvals: elicitingApprovals(server),
      open: openServeSession,
    });
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...SERVE_TOOLS, ...((await builtin?.tools()) ?? [])],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (builtin?.has(request.params.name)) {
      try {
        return await builtin.call(request.params.name, args, extra.signal);
      } catch (error) {
        return taskError((error as Error).message);
      }
    }
    const warn = (message: string) => context.stderr.write(`[WARNING] ${message}\n`);
    const progressToken = extra._meta?.progressToken;
    let progress = 0;
    // The client drops progress for a request once its result has arrived, so the result waits
    // for the notifications already on their way (the last, "Model turn finished", raced it).
    const notifications: Promise<unknown>[] = [];
    const onEvent = (event: AgentEvent) => {
      const message = progressMessage(event);
      if (progressToken === undefined || message === undefined) return;
      progress += 1;
      notifications.push(
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, message },
          })
          .catch(() => undefined),
      );
    };
    const afterNotifications = async <T>(result: T): Promise<T> => {
      await Promise.all(notifications);
      return result;
    };
    try {
      if (request.params.name === 'kodo') {
        const task = await startTask(args, { base, context, approvals: elicitingApprovals(server) });
        tasks.set(task.cli.session.id, task);
        return await afterNotifications(
          await runTask(task, stringArg(args, 'prompt'), extra.signal, { onEvent, warn }),
        );
      }
      if (request.params.name === 'kodo-reply') {
        const id = stringArg(args, 'sessionId');
        const task = tasks.get(id);
        if (!task)
          return taskError(`No kodo session ${id} in this server (sessions live as long as the server).`);
        if (task.running) return taskError(`Session ${id} is still running a prompt.`);
        return await afterNotifications(
          await runTask(task, stringArg(args, 'prompt'), extra.signal, { onEvent, warn }),
        );
      }
      return taskError(`Unknown tool: ${request.params.name}`);
    } catch (error) {
      return taskError((error as Error).message);
    }
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolveClosed) => {
    transport.onclose = () => resolveClosed();
    process.stdin.once('end', () => resolveClosed());
  });
  await server.connect(transport);
  await closed;
  await builtin?.dispose();
  for (const task of tasks.values()) await task.cli.runtime.close();
  return 0;
}

/** `--tools <set>` (repeatable, comma lists) is the serve command's own; the rest are kodo's flags. */
function serveOptions(words: string[]): { toolSets: string[]; rest: string[] } {
  const toolSets: string[] = [];
  const rest: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (word === '--') {
      rest.push(...words.slice(index));
      break;
    }
    if (word !== '--tools' && !word.startsWith('--tools=')) {
      rest.push(word);
      continue;
    }
    const value = word.includes('=') ? word.slice(word.indexOf('=') + 1) : words[++index];
    if (value === undefined || value === '') throw new ArgsError('--tools needs a value: builtin');
    for (const set of value.split(',').map((item) => item.trim())) {
      if (!(SERVE_TOOL_SETS as readonly string[]).includes(set)) {
        throw new ArgsError(`Unknown --tools value: ${set} (expected: ${SERVE_TOOL_SETS.join(', ')})`);
      }
      toolSets.push(set);
    }
  }
  return { toolSets, rest };
}

/** Approval through MCP elicitation when the client supports it; otherwise none (refused). */
/**
 * Who answers approvals, stated once the client has said what it can do: a client that takes
 * elicitation requests answers them (interactive); any other cannot, and calls that would ask are
 * refused.
 */
function elicitingApprovals(server: Server): () => Approvals {
  return () => {
    if (!server.getClientCapabilities()?.elicitation) return { interactive: false };
    const confirm: ConfirmHandler = async ({ details, signal }) => {
      const question =
        details.kind === 'exec'
          ? `Allow kodo to run \`${details.command}\`?`
          : details.kind === 'edit'
            ? `Allow kodo to change ${details.filePath}?\n\n${details.diff}`
            : details.kind === 'plan'
              ? `${details.title}\n\n${details.plan}`
              : `${details.title}\n\n${details.prompt}`;
      try {
        const answer = await server.elicitInput(
          { message: question, requestedSchema: { type: 'object', properties: {} } },
          { signal },
        );
        return answer.action === 'accept' ? { outcome: 'proceed_once' } : { outcome: 'cancel' };
      } catch {
        return { outcome: 'cancel', reason: 'The MCP client did not answer the approval request.' };
      }
    };
    return { interactive: true, confirm };
  };
}

async function startTask(
  input: Record<string, unknown>,
  setup: { base: CliArgs; context: ServeContext; approvals: () => Approvals },
): Promise<ServeTask> {
  const { base, context } = setup;
  const folder = typeof input.cwd === 'string' && input.cwd !== '' ? input.cwd : '.';
  const cwd = isAbsolute(folder) ? folder : resolve(context.cwd, folder);
  const mode = input['approval-mode'];
  if (mode !== undefined && !APPROVAL_MODES.includes(mode as (typeof APPROVAL_MODES)[number])) {
    throw new Error(`approval-mode must be one of ${APPROVAL_MODES.join(', ')}`);
  }
  const maxTurns = input['max-turns'];
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && (maxTurns as number) > 0)) {
    throw new Error('max-turns must be a positive whole number');
  }
  const args: CliArgs = {
    ...base,
    ...(typeof input.model === 'string' && input.model !== '' ? { model: input.model } : {}),
    ...(mode !== undefined ? { approvalMode: mode as CliArgs['approvalMode'] } : {}),
  };
  const cli = await openServeSession({
    args,
    cwd,
    context,
    approvals: setup.approvals,
    ...(maxTurns !== undefined ? { maxTurns: maxTurns as number } : {}),
  });
  return { cli, running: false };
}

/**
 * A session of `kodo mcp serve` in `cwd`: the folder's trust, settings, policy, hooks and sandbox
 * decide as for `kodo -p` there (an untrusted folder is refused or restricted).
 */
export async function openServeSession(setup: {
  args: CliArgs;
  cwd: string;
  context: ServeContext;
  approvals: () => Approvals;
  maxTurns?: number;
  generator?: RuntimeOptions['generator'];
}): Promise<ServeSession> {
  const { args, cwd, context, maxTurns } = setup;
  // Each task's own copy of the environment: one folder's `.env` stays with its tasks.
  const env = { ...context.env };
  const gate = await gateFolderTrust({ cwd, env, args, interactive: false });
  if (!gate.ok) throw new Error(gate.message);
  const settings = gate.settings.merged;
  const approvals = setup.approvals();
  const warn = (message: string) => context.stderr.write(`[WARNING] ${message}\n`);
  const sessionId = newSessionId();
  let runtime: Runtime | undefined;
  try {
    runtime = await createCliRuntime({
      args,
      settings:
        maxTurns === undefined
          ? settings
          : { ...settings, model: { ...settings.model, maxTurnsPerPrompt: maxTurns } },
      settingsScopes: gate.settings.scopes,
      trusted: gate.trusted,
      cwd,
      env,
      sessionId,
      approvals,
      mcpDiscovery: 'wait',
      ...(setup.generator ? { generator: setup.generator } : {}),
      onWarning: warn,
      onSessionWarning: warn,
      onPolicyFeedback: (message) => context.stderr.write(`${message}\n`),
    });
    const { session } = await runtime.newSession({ sessionId });
    await session.start('startup');
    return { runtime, session };
  } catch (caught) {
    await runtime?.close();
    const error = asFatalError(caught);
    if (error instanceof FatalError) throw new Error(error.message);
    throw error;
  }
}

function progressMessage(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'tool_call_request':
      return `Calling ${event.call.name}`;
    case 'tool_call_response':
      return `${event.response.name}: ${event.response.status}`;
    case 'retry':
      return `Retrying: ${event.reason}`;
    case 'finished':
      return 'Model turn finished';
    default:
      return undefined;
  }
}

function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') throw new Error(`${name} must be a non-empty string`);
  return value;
}
