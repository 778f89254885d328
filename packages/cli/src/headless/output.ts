import type { AgentEvent, BudgetUsage, LoopOutcome, SessionChange, SessionStats } from '@kodo/core/engine';
import { ExitCode, exitCodeForHttpStatus, type FatalError, processExitCode } from '../exit-codes';
import type { StructuredResult } from './structured-output';

/** A headless front end: consumes the Session's events and chooses the exit code. */
export interface HeadlessOutput {
  /** `input` is absent with stream-json input (each message comes with `nextPrompt`). */
  start(info: { sessionId: string; model: string; input?: string }): void;
  /** `--input-format stream-json`: the next user message of the same session. */
  nextPrompt?(input: string): void;
  /** `--input-format stream-json`: a line that is not a user message (the session goes on). */
  inputError?(message: string): void;
  event(event: AgentEvent): void;
  /** A change made through the session outside the event stream (an approval-mode switch). */
  sessionChange?(change: SessionChange): void;
  /**
   * `usage`: what the session spent, priced with the model table (json outputs add the cost).
   * `structured`: the `--json-schema` answer, when one was asked for.
   */
  finish(info: {
    result: LoopOutcome;
    stats: SessionStats;
    durationMs: number;
    usage?: BudgetUsage;
    structured?: StructuredResult;
  }): number;
  fatal(error: FatalError, sessionId: string | undefined): number;
}

export interface OutputStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Exit code for how a prompt ended (Gemini CLI's codes: 0, 130, 53, kodo's budget code, 1). */
export function exitCodeFor(result: LoopOutcome, options: { httpStatusAsExitCode: boolean }): number {
  switch (result.kind) {
    case 'completed':
    case 'halted_by_hook':
    case 'blocked_by_hook':
    case 'loop_detected':
      return ExitCode.ok;
    case 'context_overflow':
      // The prompt was never sent: nothing the caller asked for was done.
      return ExitCode.input;
    case 'cancelled':
      return ExitCode.cancelled;
    case 'turn_limit':
      return ExitCode.turnLimit;
    case 'budget':
      return ExitCode.budget;
    case 'error': {
      const { failure } = result;
      // An unusable stream after its retries is reported, not fatal (as Gemini CLI does).
      if (failure.invalidStream) return ExitCode.ok;
      if (failure.exitCode !== undefined) return processExitCode(failure.exitCode);
      if (options.httpStatusAsExitCode && failure.status !== undefined) {
        return exitCodeForHttpStatus(failure.status);
      }
      return ExitCode.error;
    }
  }
}

/** Why a prompt was not sent (`context_window_will_overflow`), for every output format. */
export function overflowMessage(event: { estimatedTokens: number; remainingTokens: number }): string {
  return `This message (${event.estimatedTokens} tokens) does not fit in what is left of the model's context window (${event.remainingTokens} tokens), so it was not sent. Send less, or use a model with a larger window.`;
}

export const MAX_TURNS_MESSAGE =
  'Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.';

/** What a `--json-schema` answer that still did not match says (json and stream-json). */
export function structuredMismatchMessage(problems: string): string {
  return `The answer did not match the JSON Schema after a retry: ${problems}`;
}
