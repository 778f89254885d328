import {
  kodoHome,
  monotonicMs,
  newSessionId,
  type Part,
  type Runtime,
  resolveInput,
  type Settings,
  type SettingsScope,
} from '@kodo/core/engine';
import { onDemand } from '../on-demand';
import type { CliArgs, OutputFormat } from '../shared/args';
import { ExitCode, FatalError } from '../shared/exit-codes';
import { favourMemoryWhenLong } from '../shared/long-session-memory';
import { asFatalError, createCliRuntime } from '../shared/runtime-setup';
import { resolveSessionStart } from '../shared/sessions';
import { assembleInput } from '../shared/stdin';
import type { HeadlessOutput, OutputStreams } from './output';
import type { JsonSchemaFile, StructuredResult } from './structured-output';
import { createTextOutput } from './text';

export interface HeadlessContext {
  args: CliArgs;
  settings: Settings;
  /** The settings files by scope, for hooks (see createRuntime). */
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
  let runtime: Runtime | undefined;
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
    runtime = await createCliRuntime({
      args,
      settings,
      ...(context.settingsScopes ? { settingsScopes: context.settingsScopes } : {}),
      cwd: context.cwd,
      env,
      sessionId,
      // Nobody answers approval questions headless: such calls are refused (use -y or policy rules).
      approvals: { interactive: false },
      onSessionWarning: warn,
      // The first request must declare every MCP tool: wait for the servers (each within its timeout).
      mcpDiscovery: 'wait',
      // Custom commands are read only when a prompt can be one (a `/…` prompt, or a conversation
      // on stdin): for any other prompt their files would be parsed for nothing.
      customCommands: streamInput || (input ?? '').trimStart().startsWith('/'),
      onWarning: warn,
    });
    const { session } = start.resume
      ? await runtime.resumeSession(start.resume)
      : await runtime.newSession({ sessionId });
    const { model, generator: built } = runtime;
    const sources = runtime.inputSources();
    if (built.debugLogPath) streams.stderr.write(`[INFO] Debug log: ${built.debugLogPath}\n`);
    output.start({ sessionId, model, ...(input !== undefined ? { input } : {}) });
    // Mode switches (exit_plan_mode, the kodo tool) are session events; outputs that stream follow them.
    if (output.sessionChange) session.subscribe(output.sessionChange);
    // SessionStart's added context joins the conversation as context, as in every front end
    // (docs/architecture.md, "Input").
    await session.start(start.resume ? 'resume' : 'startup', controller.signal);
    const live = session;
    const watchLength = favourMemoryWhenLong({});
    const runPrompt = async (text: string, parts?: Part[]): Promise<number> => {
      const started = monotonicMs();
      // One meaning for every front end: custom commands, skills, MCP prompts, `@` references.
      const resolved = await resolveInput(
        {
          text,
          ...(parts?.some((part) => part.inlineData)
            ? { parts: parts.filter((part) => part.inlineData) }
            : {}),
        },
        {
          frontEnd: 'headless',
          session: live,
          sources,
          signal: controller.signal,
          onEvent: (event) => output.event(event),
        },
      );
      if (resolved.kind === 'error') throw new FatalError(resolved.message, ExitCode.input);
      if (resolved.kind === 'session_command') {
        throw new FatalError(`/${resolved.name} does not run headless.`, ExitCode.input);
      }
      if (resolved.kind === 'shell') {
        const { runHeadlessShell } = await onDemand.headlessShellLine();
        return runHeadlessShell(live, resolved.command, {
          output,
          signal: controller.signal,
          durationFrom: started,
        });
      }
      for (const skipped of resolved.skipped) warn(`Not attached: ${skipped}`);
      const stream = live.sendMessage(resolved.prompt, controller.signal);
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
        stats: live.statsSnapshot(),
        durationMs: monotonicMs() - started,
        // kodo's budget flags add the cost to the JSON results; without them the shapes stay Gemini CLI's.
        ...(live.hasBudgetLimits() ? { usage: live.budgetUsage() } : {}),
      });
    };
    let code: number = ExitCode.ok;
    if (input !== undefined) {
      code = await runPrompt(input);
    } else {
      const { inputLines, runConversation } = await onDemand.streamInput();
      // Lines are read while a turn runs: they steer it or wait for it (stream-input.ts).
      code = await runConversation({
        lines: inputLines(context.stdin ?? process.stdin),
        run: (text, parts) => {
          output.nextPrompt?.(text);
          return runPrompt(text, parts);
        },
        steer: (text) => live.steer(text),
        takeSteering: () => live.takeSteering(),
        invalid: (message) => {
          if (output.inputError) output.inputError(message);
          else streams.stderr.write(`[ERROR] ${message}\n`);
        },
        stopped: () => controller.signal.aborted,
      });
    }
    // Auto-memory is off headless unless `memory.inbox` (or KODO_AUTO_MEMORY) turns it on.
    if (settings.memory?.inbox !== undefined || env.KODO_AUTO_MEMORY) {
      const memory = await onDemand.autoMemory();
      if (memory.autoMemoryOn(settings, env, { interactive: false })) {
        await memory.proposeToInbox(
          session,
          { kodoHome: kodoHome(env), projectRoot: context.cwd },
          { signal: controller.signal },
        );
      }
    }
    return code;
  } catch (caught) {
    const error = asFatalError(caught);
    const fatal =
      error instanceof FatalError
        ? error
        : new FatalError(
            `An unexpected critical error occurred: ${(error as Error)?.stack ?? String(error)}`,
            ExitCode.error,
          );
    return output.fatal(fatal, sessionId);
  } finally {
    // After the result is out, in the runtime's one order: SessionEnd hooks (and advisory ones
    // still running), recordings, telemetry (so it exports those hook runs), background
    // commands, MCP servers.
    await runtime?.close();
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
