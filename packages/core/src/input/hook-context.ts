/**
 * SessionStart's added context has one meaning in every front end: it is context, not prompt
 * text. It joins the conversation when the session starts, so the first request carries it ahead
 * of the environment context and the first prompt, in the same user message; the prompt itself
 * stays as the person typed it (BeforeAgent hooks, the session log, the title, telemetry and
 * checkpoints see only that). Why this one: docs/architecture.md, "Input".
 *
 * (UserPromptSubmit's context is the loop's: it follows the prompt it was given for, in every
 * front end alike; see agent/loop.ts `beforeAgent`.)
 */
import type { Part } from '../contracts/messages';
import type { SessionStartSource } from '../hooks/types';

export interface StartableSession {
  start(source: SessionStartSource, signal?: AbortSignal): Promise<{ context?: string }>;
  addContext(parts: Part[]): void;
}

/** Fires SessionStart and adds what its hooks returned to the conversation. */
export async function startSessionWithHookContext(
  session: StartableSession,
  source: SessionStartSource,
  signal?: AbortSignal,
): Promise<{ context?: string }> {
  const started = await session.start(source, signal);
  if (started.context) session.addContext([{ text: started.context }]);
  return started;
}
