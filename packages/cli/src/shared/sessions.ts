import {
  type ForeignOrigin,
  formatSessionList,
  type ImportResult,
  InvalidSessionError,
  type ListedSession,
  loadForeignSessions,
  newSessionId,
  relativeTime,
  SESSION_ID_PATTERN,
  SessionStore,
  type SessionSummary,
} from '@kodo/core/engine';
import type { CliArgs } from './args';
import { ExitCode, FatalError } from './exit-codes';

export interface SessionPlace {
  /** The project (kodo uses the working directory). */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * `kodo --list-sessions`: this project's sessions, oldest first — kodo's own and those Gemini CLI,
 * Claude Code and Codex saved for it (marked by origin). A damaged file of another tool is
 * skipped with a warning saying why.
 */
export async function listSessionsCommand(
  place: SessionPlace,
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const store = new SessionStore({ projectRoot: place.cwd, env: place.env });
  const { listAllSessions, ORIGIN_NAMES } = await loadForeignSessions();
  const { sessions, skipped } = listAllSessions(store, place.env);
  for (const entry of skipped) {
    streams.stderr.write(
      `[WARNING] Skipped the ${ORIGIN_NAMES[entry.origin]} session ${entry.file}: ${entry.reason}.\n`,
    );
  }
  streams.stdout.write(formatSessionList(sessions));
  return ExitCode.ok;
}

/**
 * `kodo --delete-session N|id`, numbered as `--list-sessions` numbers. An identifier that names no
 * session, or another tool's session (kodo never changes their files), is an input error (42).
 */
export async function deleteSessionCommand(
  identifier: string,
  place: SessionPlace,
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const store = new SessionStore({ projectRoot: place.cwd, env: place.env });
  const { listAllSessions, resolveListedSession, ORIGIN_NAMES } = await loadForeignSessions();
  const numbers = new Map(
    listAllSessions(store, place.env).sessions.map((session, index) => [session.file, index + 1]),
  );
  try {
    const target = resolveListedSession(identifier, store, place.env);
    if (!target) throw store.invalidIdentifier(identifier);
    if (target.origin) {
      streams.stderr.write(
        `[ERROR] Session ${numbers.get(target.file)} was saved by ${ORIGIN_NAMES[target.origin]}; kodo does not delete other tools' files (${target.file}).\n`,
      );
      return ExitCode.input;
    }
    const deleted = store.delete(target.id);
    streams.stdout.write(
      `Deleted session ${numbers.get(deleted.file)}: ${deleted.title} (${relativeTime(deleted.lastUpdated)}) [${deleted.id}]\n`,
    );
    return ExitCode.ok;
  } catch (error) {
    if (!(error instanceof InvalidSessionError)) throw error;
    // The store's message tells how to resume; here the flag to correct is --delete-session.
    const message = error.message
      .replace(
        /^Invalid session identifier "([^"]*)"\./,
        'Invalid session identifier "$1" for --delete-session.',
      )
      .replace(/then use --resume .*$/s, 'then use --delete-session {number} or --delete-session {uuid}.');
    streams.stderr.write(`[ERROR] ${message}\n`);
    return ExitCode.input;
  }
}

/** What a run starts from: a new session (with a fresh or a chosen id) or a recorded one. */
export interface SessionStart {
  sessionId: string;
  resume?: SessionSummary;
  /** Set when `resume` is a new kodo session imported from another tool's session. */
  imported?: { origin: ForeignOrigin; sessionId: string };
}

/**
 * Reads `--resume` and `--session-id`. `--resume latest` with no sessions warns and starts a new
 * session; an identifier that names no session, a malformed `--session-id` or one that is taken
 * throw a FatalError with exit code 42. `--resume` also accepts the sessions other tools saved
 * (listed with kodo's, see `--list-sessions`): such a session's conversation is imported into a
 * new kodo session, which the run then resumes; the original file is only read.
 */
export async function resolveSessionStart(
  args: Pick<CliArgs, 'resume' | 'sessionId'>,
  place: SessionPlace & { onWarning: (message: string) => void; onInfo?: (message: string) => void },
): Promise<SessionStart> {
  if (args.resume === undefined && args.sessionId === undefined) return { sessionId: newSessionId() };
  const store = new SessionStore({ projectRoot: place.cwd, env: place.env });
  if (args.sessionId !== undefined) {
    if (!SESSION_ID_PATTERN.test(args.sessionId)) {
      throw new FatalError(
        `Invalid session id "${args.sessionId}": use only letters, digits, "-" and "_".`,
        ExitCode.input,
      );
    }
    if (store.findById(args.sessionId)) {
      throw new FatalError(
        `Session "${args.sessionId}" already exists. Use --resume ${args.sessionId} to continue it.`,
        ExitCode.input,
      );
    }
    return { sessionId: args.sessionId };
  }
  // Loaded only now: a run that does not resume never reads other tools' folders.
  const foreign = await loadForeignSessions();
  let found: ListedSession | undefined;
  try {
    found = foreign.resolveListedSession(args.resume!, store, place.env);
  } catch (error) {
    if (error instanceof InvalidSessionError) throw new FatalError(error.message, ExitCode.input);
    throw error;
  }
  if (!found) {
    place.onWarning('No previous sessions found for this project.');
    return { sessionId: newSessionId() };
  }
  if (!foreign.isForeign(found)) return { sessionId: found.id, resume: found };
  const name = foreign.ORIGIN_NAMES[found.origin];
  const sessionId = newSessionId();
  let imported: ImportResult;
  try {
    imported = await foreign.importForeignSession(found, store, { sessionId });
  } catch (error) {
    throw new FatalError(
      `Cannot import the ${name} session ${found.id}: ${(error as Error).message}`,
      ExitCode.input,
    );
  }
  for (const warning of imported.warnings) place.onWarning(warning);
  place.onInfo?.(
    `Imported the ${name} session ${found.id} as kodo session ${sessionId} (the original file is unchanged).`,
  );
  return { sessionId, resume: imported.summary, imported: { origin: found.origin, sessionId: found.id } };
}
