import { monotonicMs, runShellLine, type Session } from '@kodo/core/engine';
import { ExitCode, FatalError } from '../exit-codes';
import type { HeadlessOutput } from './output';

/**
 * `kodo -p '!command'`: the command runs as the line's own call, with every check a model's call
 * gets (headless nobody approves: a policy or `tools.allowed` must allow it). Its output is the
 * run's answer (stdout in text, `response` in json), and it joins the context of the next
 * stream-json message. No model request is made.
 */
export async function runHeadlessShell(
  session: Session,
  command: string,
  options: { output: HeadlessOutput; signal: AbortSignal; durationFrom: number },
): Promise<number> {
  const { output } = options;
  const result = await runShellLine(session, command, {
    frontEnd: 'headless',
    signal: options.signal,
    onEvent: (event) => output.event(event),
  });
  if (result.status === 'error' && !result.ran) {
    throw new FatalError(`Shell command '${command}' was not run: ${result.output}`, ExitCode.input);
  }
  const text = result.output.endsWith('\n') ? result.output : `${result.output}\n`;
  if (result.status !== 'cancelled') output.event({ type: 'content', text });
  return output.finish({
    result: result.status === 'cancelled' ? { kind: 'cancelled', text: '' } : { kind: 'completed', text },
    stats: session.stats,
    durationMs: monotonicMs() - options.durationFrom,
  });
}
