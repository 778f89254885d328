import type { AgentEvent } from '@kodo/core/engine';
import type { FatalError } from '../exit-codes';
import { stripAnsi } from './ansi';
import { exitCodeFor, type HeadlessOutput, MAX_TURNS_MESSAGE, type OutputStreams } from './output';

/**
 * `-o text`: only the model's answer on stdout, streamed as it arrives and stripped of escape
 * sequences; everything else on stderr.
 */
export function createTextOutput(streams: OutputStreams): HeadlessOutput {
  let atLineStart = true;
  const writeOut = (text: string) => {
    if (text === '') return;
    streams.stdout.write(text);
    atLineStart = text.endsWith('\n');
  };
  const ensureNewline = () => {
    if (!atLineStart) writeOut('\n');
  };
  const errorLine = (line: string) => streams.stderr.write(`${line}\n`);

  return {
    start() {},
    event(event: AgentEvent) {
      switch (event.type) {
        case 'content':
          writeOut(stripAnsi(event.text));
          break;
        case 'tool_call_request':
          ensureNewline();
          break;
        case 'tool_call_response':
          if (event.response.status === 'error') {
            errorLine(`Error executing tool ${event.response.name}: ${event.response.resultDisplay}`);
          }
          break;
        case 'retry':
          errorLine(
            `[WARNING] ${event.reason} Retrying (attempt ${event.attempt}) in ${Math.round(event.delayMs / 100) / 10} s…`,
          );
          break;
        case 'invalid_stream':
          ensureNewline();
          errorLine(`[ERROR] ${event.message}`);
          break;
        case 'error':
          ensureNewline();
          errorLine(`[ERROR] ${event.message}`);
          break;
        case 'max_session_turns':
          ensureNewline();
          errorLine(MAX_TURNS_MESSAGE);
          break;
        case 'agent_execution_stopped':
          errorLine(`Agent execution stopped: ${event.reason}`);
          break;
        case 'agent_execution_blocked':
          errorLine(`[WARNING] Agent execution blocked: ${event.reason}`);
          break;
        case 'user_cancelled':
          ensureNewline();
          errorLine('Operation cancelled.');
          break;
      }
    },
    finish({ result }) {
      ensureNewline();
      return exitCodeFor(result, { httpStatusAsExitCode: false });
    },
    fatal(error: FatalError) {
      ensureNewline();
      errorLine(error.message);
      return error.exitCode;
    },
  };
}
