import type { AgentEvent, BudgetUsage, SessionResult, SessionStats } from '@kodo/core/engine';
import { ExitCode, type FatalError } from '../exit-codes';

/** A headless front end: consumes the Session's events and chooses the exit code. */
export interface HeadlessOutput {
  start(info: { sessionId: string; model: string; input: string }): void;
  event(event: AgentEvent): void;
  /** `usage`: what the session spent, priced with the model table (json outputs add the cost). */
  finish(info: {
    result: SessionResult;
    stats: SessionStats;
    durationMs: number;
    usage?: BudgetUsage;
  }): number;
  fatal(error: FatalError, sessionId: string | undefined): number;
}

export interface OutputStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Exit code for how a prompt ended (reference §2.3). */
export function exitCodeFor(result: SessionResult, options: { httpStatusAsExitCode: boolean }): number {
  switch (result.status) {
    case 'completed':
    case 'invalid_stream':
    case 'loop_detected':
    case 'context_overflow':
      return ExitCode.ok;
    case 'cancelled':
      return ExitCode.cancelled;
    case 'max_session_turns':
      return ExitCode.turnLimit;
    case 'budget_exceeded':
      return ExitCode.budget;
    case 'error':
      if (result.error?.exitCode !== undefined) return result.error.exitCode;
      if (options.httpStatusAsExitCode && result.error?.status !== undefined) return result.error.status;
      return ExitCode.error;
  }
}

export const MAX_TURNS_MESSAGE =
  'Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.';
