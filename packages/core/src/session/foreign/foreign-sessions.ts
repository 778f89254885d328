/**
 * The sessions Gemini CLI, Claude Code and Codex saved for a project, listed with kodo's own and
 * imported on `--resume` as a new kodo session. Loaded on demand (`loadForeignSessions`): only a
 * run that lists or resumes sessions reads other tools' folders. Importing only reads the
 * original file; it runs no tool call and fires no hook for the imported history.
 */
import { repairHistory } from '../history-repair';
import { byStartTime, readSessionSummary, type SessionSummary } from '../session-files';
import { SessionStats } from '../stats';
import type { SessionStore } from '../store';
import { claudeSessions } from './claude-sessions';
import { codexSessions } from './codex-sessions';
import { geminiSessions } from './gemini-sessions';
import {
  type ForeignOrigin,
  type ForeignSessionFormat,
  type ForeignSessionSummary,
  ORIGIN_NAMES,
  type SkippedSession,
} from './types';

const FORMATS: Record<ForeignOrigin, ForeignSessionFormat> = {
  gemini: geminiSessions,
  claude: claudeSessions,
  codex: codexSessions,
};

/** A session in the list: kodo's own (no origin) or another tool's. */
export type ListedSession = SessionSummary & { origin?: ForeignOrigin };

export interface SessionListing {
  /** Oldest first; index i is session number i + 1 for `--resume` and `--delete-session`. */
  sessions: ListedSession[];
  /** Other tools' files that could not be listed, with the reason. */
  skipped: SkippedSession[];
}

/** The project's sessions: kodo's and the other tools', sorted together by start time. */
export function listAllSessions(store: SessionStore, env: NodeJS.ProcessEnv): SessionListing {
  const listings = Object.values(FORMATS).map((format) => format.list(store.projectRoot, env));
  const sessions: ListedSession[] = [...store.list(), ...listings.flatMap((listing) => listing.sessions)];
  return { sessions: sessions.sort(byStartTime), skipped: listings.flatMap((listing) => listing.skipped) };
}

/**
 * `latest` (undefined when there is no session), a 1-based index of the whole list, or a session
 * id (kodo's first). Anything else throws the store's InvalidSessionError.
 */
export function resolveListedSession(
  identifier: string,
  store: SessionStore,
  env: NodeJS.ProcessEnv,
): ListedSession | undefined {
  const value = identifier.trim();
  const byId = (): ListedSession | undefined =>
    store.findById(value) ?? listAllSessions(store, env).sessions.find((session) => session.id === value);
  if (value === 'latest') return listAllSessions(store, env).sessions.at(-1);
  if (/^\d+$/.test(value)) {
    const { sessions } = listAllSessions(store, env);
    const index = Number(value);
    if (index >= 1 && index <= sessions.length) return sessions[index - 1];
  }
  // A numeric id is still an id.
  const found = byId();
  if (!found) throw store.invalidIdentifier(identifier);
  return found;
}

export function isForeign(session: ListedSession): session is ForeignSessionSummary {
  return session.origin !== undefined;
}

export interface ImportResult {
  /** The new kodo session, resumable like any other. */
  summary: SessionSummary;
  /** What could not be read from the original (damaged lines), one sentence each. */
  warnings: string[];
}

/**
 * Reads another tool's session and writes its conversation as a new kodo session with the
 * given id: prompts, answers, calls and results, thinking (kodo's providers then send each model
 * only what it can take). Every call keeps its answer. The original file is only read.
 */
export async function importForeignSession(
  session: ForeignSessionSummary,
  store: SessionStore,
  options: { sessionId: string },
): Promise<ImportResult> {
  const name = ORIGIN_NAMES[session.origin];
  const conversation = await FORMATS[session.origin].read(session.file);
  const history = repairHistory(conversation.history);
  if (history.length === 0)
    throw new Error(`The ${name} session ${session.id} holds no conversation to continue.`);
  let failure: string | undefined;
  const recorder = store.newRecorder({
    sessionId: options.sessionId,
    importedFrom: { origin: session.origin, sessionId: session.id, file: session.file },
    onError: (message) => {
      failure = message;
    },
  });
  const stats = new SessionStats().snapshot();
  recorder.record({
    history,
    rewrites: 0,
    model: conversation.model ?? session.origin,
    stats: () => stats,
    todos: () => [],
  });
  const summary = failure === undefined ? readSessionSummary(recorder.file) : undefined;
  if (!summary) throw new Error(`Could not write the imported session: ${failure ?? recorder.file}`);
  return { summary, warnings: conversation.warnings };
}

export { ORIGIN_NAMES };
