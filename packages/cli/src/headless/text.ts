import type { AgentEvent } from '@kodo/core/engine';
import { stripTerminalControls } from '@kodo/core/engine';
import type { FatalError } from '../exit-codes';
import {
  exitCodeFor,
  type HeadlessOutput,
  MAX_TURNS_MESSAGE,
  type OutputStreams,
  overflowMessage,
} from './output';
import { RetryDedup } from './retry-dedup';

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
  // Tool errors and reasons carry text from tools and servers: printed as safely as the answer.
  const errorLine = (line: string) => streams.stderr.write(`${stripTerminalControls(line)}\n`);
  const answer = new RetryDedup(writeOut, () =>
    errorLine('[WARNING] The retried answer differs from the partial answer printed above.'),
  );

  return {
    start() {},
    event(event: AgentEvent) {
      switch (event.type) {
        case 'content':
          answer.content(stripTerminalControls(event.text));
          break;
        case 'finished':
          answer.endTurn();
          break;
        case 'tool_call_request':
          answer.endTurn();
          ensureNewline();
          break;
        case 'tool_call_response':
          if (event.response.status === 'error') {
            errorLine(`Error executing tool ${event.response.name}: ${event.response.resultDisplay}`);
          }
          break;
        case 'retry':
          answer.retry();
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
        case 'loop_detected':
          // Nothing on stdout; a note on stderr so a person reading the log knows why it stopped.
          ensureNewline();
          errorLine(
            event.action === 'stop'
              ? `[WARNING] Loop detected, stopping execution: ${event.detail}`
              : `[WARNING] Potential loop detected (${event.detail}); asking the model to rethink.`,
          );
          break;
        case 'model_info':
          if (event.reason) errorLine(`[WARNING] ${event.reason}`);
          break;
        case 'context_window_will_overflow':
          ensureNewline();
          errorLine(`[ERROR] ${overflowMessage(event)}`);
          break;
        case 'chat_compressed':
          if (event.status === 'compressed') {
            errorLine(
              `[INFO] Chat history compressed from ${event.originalTokens} to ${event.newTokens} tokens.`,
            );
          }
          break;
        case 'max_session_turns':
          ensureNewline();
          errorLine(MAX_TURNS_MESSAGE);
          break;
        case 'budget_exceeded':
          ensureNewline();
          errorLine(`[ERROR] ${event.message} The session was stopped.`);
          break;
        case 'agent_execution_stopped':
          ensureNewline();
          errorLine(`Agent execution stopped: ${event.reason}`);
          break;
        case 'agent_execution_blocked':
          // An AfterAgent hook may have rejected an answer: the next one starts on its own line.
          ensureNewline();
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
      errorLine(`[ERROR] ${error.message}`);
      return error.exitCode;
    },
  };
}
