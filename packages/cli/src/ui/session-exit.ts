import type { Runtime, Session } from '@kodo/core/engine';
import { proposeToInbox, worthProposing } from '../shared/auto-memory';

/**
 * The end of an interactive run. Auto-memory's proposal is a model call, so it is made while the
 * runtime is still open (as headless makes it): its usage is counted and telemetry exports it.
 * Then the runtime's one teardown: SessionEnd (`exit`) for the sessions still open, recordings,
 * telemetry, background commands, MCP servers.
 */
export async function endInteractiveRun(run: {
  runtime: Pick<Runtime, 'close'>;
  /** The session in use when the person left. */
  session: Session;
  /** Whether auto-memory proposes facts at exit (autoMemoryOn; never for a replay). */
  proposeMemories: boolean;
  where: { kodoHome: string; projectRoot: string };
  stdout: NodeJS.WritableStream;
}): Promise<void> {
  const added = run.proposeMemories ? await proposeAtExit(run.session, run.where, run.stdout) : 0;
  await run.runtime.close();
  if (added > 0) {
    run.stdout.write(
      `\n${added} proposed ${added === 1 ? 'memory waits' : 'memories wait'} in the inbox: /memory inbox\n`,
    );
  }
}

/**
 * Auto-memory at exit (auto-memory.ts): skipped for trivial sessions, at most PROPOSAL_LIMIT_MS,
 * and Ctrl+C skips it at once. Nothing is written to a memory file here.
 */
async function proposeAtExit(
  session: Session,
  where: { kodoHome: string; projectRoot: string },
  stdout: NodeJS.WritableStream,
): Promise<number> {
  if (!worthProposing(session.history())) return 0;
  stdout.write('\nLooking for facts worth remembering (Ctrl+C skips)…\n');
  const skip = new AbortController();
  const onSigint = () => skip.abort();
  process.on('SIGINT', onSigint);
  try {
    return await proposeToInbox(session, where, { signal: skip.signal });
  } finally {
    process.off('SIGINT', onSigint);
  }
}
