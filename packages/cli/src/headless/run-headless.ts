import {
  type McpManager,
  monotonicMs,
  newSessionId,
  type Part,
  routeAgentMention,
  type Session,
  type Settings,
  type SettingsScope,
} from '@kodo/core/engine';
import type { CliArgs, OutputFormat } from '../args';
import { ExitCode, FatalError } from '../exit-codes';
import { assembleInput } from '../input';
import { favourMemoryWhenLong } from '../long-session-memory';
import { onDemand } from '../on-demand';
import { createCliSession } from '../session-factory';
import { resolveSessionStart } from '../sessions';
import { expandHeadlessCommand } from './custom-command';
import { expandMcpInput } from './mcp-input';
import type { HeadlessOutput, OutputStreams } from './output';
import type { JsonSchemaFile, StructuredResult } from './structured-output';
import { createTextOutput } from './text';

export interface HeadlessContext {
  args: CliArgs;
  settings: Settings;
  /** The settings files by scope, for hooks (see createCliSession). */
  settingsScopes?: SettingsScope[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The piped input, if any (see readPipedStdin). */
  readStdin: () => Promise<string | undefined>;
  streams: OutputStreams;
  /** Where `--input-format stream-json` reads its messages (default: process.stdin). */
  stdin?: NodeJS.ReadableStream;
}

/** One prompt, run to completion without a person: `kodo -p …`, piped input, scripts and CI. */
export async function runHeadless(context: HeadlessContext): Promise<number> {
  const { args, settings, env, streams } = context;
  const format: OutputFormat = args.outputFormat ?? asOutputFormat(settings.output?.format) ?? 'text';
  // A bad --json-schema is a usage error, found before anything runs.
  let jsonSchema: JsonSchemaFile | undefined;
  if (args.jsonSchema !== undefined) {
    const loaded = await loadSchemaFlag(args.jsonSchema, format, context.cwd);
    if (typeof loaded === 'string') {
      streams.stderr.write(`[ERROR] ${loaded} (see kodo --help)\n`);
      return ExitCode.error;
    }
    jsonSchema = loaded;
  }
  const output = await createOutput(format, streams);
  let sessionId = newSessionId();
  const warn = (message: string) => streams.stderr.write(`[WARNING] ${message}\n`);
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(ExitCode.cancelled);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  let session: Session | undefined;
  let mcp: McpManager | undefined;
  try {
    // `--resume`/`--session-id` problems are input errors (42), found before anything runs.
    const start = await resolveSessionStart(args, {
      cwd: context.cwd,
      env,
      onWarning: warn,
      onInfo: (message) => streams.stderr.write(`[INFO] ${message}\n`),
    });
    sessionId = start.sessionId;
    // With stream-json input, stdin is the conversation: it is read line by line below.
    const streamInput = args.inputFormat === 'stream-json';
    const input = streamInput
      ? undefined
      : assembleInput(await context.readStdin(), args.prompt ?? args.query);
    const created = await createCliSession({
      args,
      settings,
      ...(context.settingsScopes ? { settingsScopes: context.settingsScopes } : {}),
      cwd: context.cwd,
      env,
      sessionId,
      // Nobody answers approval questions headless: such calls are refused (use -y or policy rules).
      approvals: { interactive: false },
      ...(start.resume ? { resume: start.resume } : {}),
      onSessionWarning: warn,
      // The first request must declare every MCP tool: wait for the servers (each within its timeout).
      mcpDiscovery: 'wait',
      // Custom commands are read only when a prompt can be one (a `/…` prompt, or a conversation
      // on stdin): for any other prompt their files would be parsed for nothing.
      customCommands: streamInput || (input ?? '').trimStart().startsWith('/'),
      onWarning: warn,
    });
    session = created.session;
    mcp = created.mcp;
    const { model, generator: built } = created;
    if (built.debugLogPath) streams.stderr.write(`[INFO] Debug log: ${built.debugLogPath}\n`);
    output.start({ sessionId, model, ...(input !== undefined ? { input } : {}) });
    // Mode switches (exit_plan_mode, the kodo tool) are session events; outputs that stream follow them.
    if (output.sessionChange) session.subscribe(output.sessionChange);
    // SessionStart's added context goes before the first prompt, in the same message (the
    // interactive UI adds it as a turn of its own instead).
    const { context: hookContext } = await session.start(
      start.resume ? 'resume' : 'startup',
      controller.signal,
    );
    const live = session;
    let pendingHookContext = hookContext;
    const watchLength = favourMemoryWhenLong({});
    const runPrompt = async (text: string, parts?: Part[]): Promise<number> => {
      const started = monotonicMs();
      const hookText = pendingHookContext;
      pendingHookContext = undefined;
      // A custom slash command (`/git:commit now`) expands to its prompt first.
      const command = await expandHeadlessCommand(text, {
        session: live,
        ...(created.extensibility ? { extensibility: created.extensibility.loaded } : {}),
        ...(mcp ? { mcp } : {}),
        signal: controller.signal,
        onEvent: (event) => output.event(event),
      });
      let prompt: string | Part[];
      if (command) {
        prompt = hookText ? [{ text: `${hookText}\n\n` }, ...command] : command;
      } else {
        const expanded = mcp
          ? await expandMcpInput(text, mcp, { signal: controller.signal, onWarning: warn })
          : text;
        const routed = routeAgentMention(
          expanded,
          live.agents.list().map((agent) => agent.name),
        ).prompt;
        const withHooks = hookText ? `${hookText}\n\n${routed}` : routed;
        // Blocks other than text (images) go as parts; MCP and hook expansion work on text.
        prompt = parts?.some((part) => part.inlineData)
          ? [{ text: withHooks }, ...parts.filter((part) => part.inlineData)]
          : withHooks;
      }
      const stream = live.sendMessage(prompt, controller.signal);
      let next = await stream.next();
      while (!next.done) {
        watchLength(next.value);
        output.event(next.value);
        next = await stream.next();
      }
      let result = next.value;
      let structured: StructuredResult | undefined;
      if (jsonSchema && result.kind === 'completed') {
        const { askStructuredAnswer } = await onDemand.structuredOutput();
        const asked = await askStructuredAnswer(live, jsonSchema, controller.signal, (event) => {
          watchLength(event);
          output.event(event);
        });
        result = asked.outcome;
        structured = asked.structured;
      }
      await built.flush();
      return output.finish({
        result,
        ...(structured ? { structured } : {}),
        stats: live.stats,
        durationMs: monotonicMs() - started,
        // kodo's budget flags add the cost to the JSON results; without them the shapes stay Gemini CLI's.
        ...(live.budget.active ? { usage: live.budget.usage() } : {}),
      });
    };
    let code: number = ExitCode.ok;
    if (input !== undefined) {
      code = await runPrompt(input);
    } else {
      const { inputLines, parseUserLine } = await onDemand.streamInput();
      for await (const line of inputLines(context.stdin ?? process.stdin)) {
        if (line.trim() === '') continue;
        const parsed = parseUserLine(line);
        if (!parsed.ok) {
          if (output.inputError) output.inputError(parsed.message);
          else streams.stderr.write(`[ERROR] ${parsed.message}\n`);
          continue;
        }
        output.nextPrompt?.(parsed.text);
        code = await runPrompt(parsed.text, parsed.parts);
        if (controller.signal.aborted) break;
      }
    }
    await session.dispose();
    return code;
  } catch (error) {
    const fatal =
      error instanceof FatalError
        ? error
        : new FatalError(
            `An unexpected critical error occurred: ${(error as Error)?.stack ?? String(error)}`,
            ExitCode.error,
          );
    return output.fatal(fatal, sessionId);
  } finally {
    // After the result is out: SessionEnd hooks (and advisory ones still running) may finish.
    await session?.end('exit');
    await mcp?.dispose();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

/** Text is the default; the JSON writers load only for a run that asks for them. */
async function createOutput(format: OutputFormat, streams: OutputStreams): Promise<HeadlessOutput> {
  switch (format) {
    case 'json':
      return (await onDemand.jsonOutput()).createJsonOutput(streams);
    case 'stream-json':
      return (await onDemand.streamJsonOutput()).createStreamJsonOutput(streams);
    default:
      return createTextOutput(streams);
  }
}

/** The `--json-schema` file, or why it cannot be used (a usage error). */
async function loadSchemaFlag(
  path: string,
  format: OutputFormat,
  cwd: string,
): Promise<JsonSchemaFile | string> {
  if (format === 'text') return '--json-schema needs -o json or -o stream-json';
  const { loadJsonSchemaFile, JsonSchemaFileError } = await onDemand.structuredOutput();
  try {
    return loadJsonSchemaFile(path, cwd);
  } catch (error) {
    if (error instanceof JsonSchemaFileError) return error.message;
    throw error;
  }
}

function asOutputFormat(value: string | undefined): OutputFormat | undefined {
  return value === 'text' || value === 'json' || value === 'stream-json' ? value : undefined;
}
