import {
  type ApprovalMode,
  DEFAULT_OUTPUT_THRESHOLD_CHARS,
  lazyBuiltinTools,
  monotonicMs,
  newSessionId,
  projectTempDir,
  type RetryPolicy,
  Session,
  type Settings,
  sanitizeEnv,
  ToolRegistry,
  Workspace,
} from '@kodo/core/engine';
import type { CliArgs, OutputFormat } from '../args';
import { ExitCode, FatalError } from '../exit-codes';
import { buildGenerator } from '../generator';
import { assembleInput } from '../input';
import { createJsonOutput } from './json';
import type { HeadlessOutput, OutputStreams } from './output';
import { createStreamJsonOutput } from './stream-json';
import { createTextOutput } from './text';

export const DEFAULT_MODEL = 'gemini-2.5-pro';
const SHELL_INACTIVITY_TIMEOUT_MS = 300_000;

export interface HeadlessContext {
  args: CliArgs;
  settings: Settings;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The piped input, if any (see readPipedStdin). */
  readStdin: (onWarning: (message: string) => void) => Promise<string | undefined>;
  streams: OutputStreams;
}

/** One prompt, run to completion without a person: `kodo -p …`, piped input, scripts and CI. */
export async function runHeadless(context: HeadlessContext): Promise<number> {
  const { args, settings, env, streams } = context;
  const format: OutputFormat = args.outputFormat ?? asOutputFormat(settings.output?.format) ?? 'text';
  const output = createOutput(format, streams);
  const sessionId = newSessionId();
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(ExitCode.cancelled);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const stdinText = await context.readStdin((warning) =>
      streams.stderr.write(`${warning}
`),
    );
    const input = assembleInput(stdinText, args.prompt ?? args.query);
    const model = args.model ?? env.KODO_MODEL ?? env.GEMINI_MODEL ?? settings.model?.name ?? DEFAULT_MODEL;
    const built = await buildGenerator({
      fakeResponses: args.fakeResponses,
      fakeResponsesStrict: args.fakeResponsesStrict,
      recordResponses: args.recordResponses,
      debug: args.debug,
      sessionId,
      env,
    });
    const tempDir = projectTempDir(context.cwd, env);
    if (built.debugLogPath) streams.stderr.write(`[INFO] Debug log: ${built.debugLogPath}\n`);
    const session = new Session({
      sessionId,
      generator: built.generator,
      model,
      tools: new ToolRegistry(lazyBuiltinTools()),
      toolContext: {
        workspace: new Workspace({ roots: [context.cwd], tempDir }),
        env: sanitizeEnv(env),
        shellInactivityTimeoutMs: SHELL_INACTIVITY_TIMEOUT_MS,
      },
      approvalMode: resolveApprovalMode(args, settings),
      maxSessionTurns: settings.model?.maxSessionTurns ?? -1,
      retry: retryOverrides(env),
      outputLimit: { thresholdChars: outputThreshold(settings), spillDir: tempDir },
    });
    const started = monotonicMs();
    output.start({ sessionId, model, input });
    const stream = session.sendMessage(input, controller.signal);
    let next = await stream.next();
    while (!next.done) {
      output.event(next.value);
      next = await stream.next();
    }
    await built.flush();
    return output.finish({ result: next.value, stats: session.stats, durationMs: monotonicMs() - started });
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
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

function outputThreshold(settings: Settings): number {
  const value = settings.tools?.truncateToolOutputThreshold;
  return typeof value === 'number' && Number.isFinite(value) ? value : DEFAULT_OUTPUT_THRESHOLD_CHARS;
}

function createOutput(format: OutputFormat, streams: OutputStreams): HeadlessOutput {
  switch (format) {
    case 'json':
      return createJsonOutput(streams);
    case 'stream-json':
      return createStreamJsonOutput(streams);
    default:
      return createTextOutput(streams);
  }
}

function asOutputFormat(value: string | undefined): OutputFormat | undefined {
  return value === 'text' || value === 'json' || value === 'stream-json' ? value : undefined;
}

function resolveApprovalMode(args: CliArgs, settings: Settings): ApprovalMode {
  if (args.approvalMode) return args.approvalMode;
  const fromSettings = settings.general?.defaultApprovalMode;
  // yolo is never taken from settings: only an explicit flag turns it on.
  if (fromSettings === 'default' || fromSettings === 'auto_edit' || fromSettings === 'plan')
    return fromSettings;
  return 'default';
}

/** `KODO_RETRY_BASE_MS` scales retry delays (tests and impatient gateways); unset = defaults. */
function retryOverrides(env: NodeJS.ProcessEnv): Partial<RetryPolicy> {
  const base = Number(env.KODO_RETRY_BASE_MS);
  if (!Number.isFinite(base) || base < 0 || env.KODO_RETRY_BASE_MS === undefined) return {};
  return { initialDelayMs: base * 5, maxDelayMs: base * 30, streamInitialDelayMs: base };
}
