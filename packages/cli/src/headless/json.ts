import type { AgentEvent, BudgetUsage } from '@kodo/core/engine';
import { stripTerminalControls } from '@kodo/core/engine';
import { ExitCode, type FatalError } from '../exit-codes';
import {
  exitCodeFor,
  type HeadlessOutput,
  type OutputStreams,
  overflowMessage,
  structuredMismatchMessage,
} from './output';

/**
 * `-o json`: one pretty-printed object on stdout at the end: the session id, the text of the
 * final model turn, the stats, and an error or warnings when there were any.
 */
export function createJsonOutput(streams: OutputStreams): HeadlessOutput {
  let sessionId = '';
  let response = '';
  let newRoundTrip = false;
  let error: { type: string; message: string } | undefined;
  const warnings: string[] = [];

  return {
    start(info) {
      sessionId = info.sessionId;
    },
    event(event: AgentEvent) {
      switch (event.type) {
        case 'content':
          // `response` holds only the final turn's text: reset on each new round-trip.
          if (newRoundTrip) {
            response = '';
            newRoundTrip = false;
          }
          response += stripTerminalControls(event.text);
          break;
        case 'tool_call_request':
        case 'retry':
          newRoundTrip = true;
          break;
        case 'tool_call_response':
          newRoundTrip = true;
          if (event.response.status === 'error') {
            streams.stderr.write(
              `Error executing tool ${event.response.name}: ${event.response.resultDisplay}\n`,
            );
          }
          break;
        case 'invalid_stream':
          error = { type: 'INVALID_STREAM', message: event.message };
          break;
        case 'context_window_will_overflow':
          error = { type: 'CONTEXT_WINDOW_OVERFLOW', message: overflowMessage(event) };
          break;
        case 'loop_detected':
          if (event.action === 'stop') warnings.push('Loop detected, stopping execution');
          break;
        case 'max_session_turns':
          warnings.push('Maximum session turns exceeded');
          break;
        case 'budget_exceeded':
          // Not a failure of the run: the answer so far and the stats (with the cost) still print.
          error = { type: 'BUDGET_EXCEEDED', message: event.message };
          break;
        case 'agent_execution_blocked':
          // After an AfterAgent rejection the model answers again: only that answer counts.
          newRoundTrip = true;
          warnings.push(`Agent execution blocked: ${event.reason}`);
          break;
        case 'agent_execution_stopped':
          warnings.push(`Agent execution stopped: ${event.reason}`);
          break;
      }
    },
    finish({ result, stats, usage, structured }) {
      let code = exitCodeFor(result, { httpStatusAsExitCode: true });
      const failed = result.kind === 'error' && !result.failure.invalidStream;
      if (failed || result.kind === 'cancelled') {
        const message = failed ? result.failure.message : 'Operation cancelled.';
        const type = failed ? 'ApiError' : 'CancelledError';
        streams.stderr.write(
          `${JSON.stringify({ session_id: sessionId, error: { type, message, code } }, null, 2)}\n`,
        );
        return code;
      }
      const output: Record<string, unknown> = { session_id: sessionId, response };
      if (structured?.kind === 'matched') output.structured_output = structured.value;
      if (structured?.kind === 'mismatch') {
        error = {
          type: 'STRUCTURED_OUTPUT_MISMATCH',
          message: structuredMismatchMessage(structured.problems),
        };
        code = ExitCode.structuredOutput;
      }
      output.stats = stats.snapshot();
      if (usage) output.cost = costSummary(usage);
      if (error) output.error = error;
      if (warnings.length > 0) output.warnings = warnings;
      streams.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
      return code;
    },
    fatal(fatal: FatalError, id) {
      const body = {
        session_id: id ?? sessionId,
        error: { type: fatal.name, message: fatal.message, code: fatal.exitCode },
      };
      streams.stderr.write(`${JSON.stringify(body, null, 2)}\n`);
      return fatal.exitCode;
    },
  };
}

/**
 * kodo's addition to the JSON result (Gemini CLI has no cost): dollars per model, priced with
 * kodo's model catalogue (`kodo models`); models without a known price are listed, not guessed.
 */
export interface CostSummary {
  total_usd: number;
  models: Record<string, number>;
  unpriced_models?: string[];
}

export function costSummary(usage: BudgetUsage): CostSummary {
  return {
    total_usd: roundUsd(usage.costUsd),
    models: Object.fromEntries(
      Object.entries(usage.costByModel).map(([model, usd]) => [model, roundUsd(usd)]),
    ),
    ...(usage.unpricedModels.length > 0 ? { unpriced_models: usage.unpricedModels } : {}),
  };
}

/** Millionths of a dollar: enough for one cheap request, without float noise. */
function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
