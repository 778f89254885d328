import { monotonicMs, newSessionId, type Settings } from '@kodo/core/engine';
import type { CliArgs, OutputFormat } from '../args';
import { ExitCode, FatalError } from '../exit-codes';
import { assembleInput } from '../input';
import { createCliSession } from '../session-factory';
import { createJsonOutput } from './json';
import type { HeadlessOutput, OutputStreams } from './output';
import { createStreamJsonOutput } from './stream-json';
import { createTextOutput } from './text';

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
    const {
      session,
      model,
      generator: built,
    } = await createCliSession({
      args,
      settings,
      cwd: context.cwd,
      env,
      sessionId,
    });
    if (built.debugLogPath) streams.stderr.write(`[INFO] Debug log: ${built.debugLogPath}\n`);
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
