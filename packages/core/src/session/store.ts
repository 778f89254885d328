import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadPart } from '../on-demand';
import { ChatCheckpoints } from './checkpoints';
import { SessionRecorder } from './recorder';
import { type ImportedFrom, sessionFileName } from './records';
import type { LoadedSession, LoadSessionOptions } from './resume';
import {
  listSessions,
  readSessionSummary,
  type SessionSummary,
  sessionFileNames,
  sessionsDir,
} from './session-files';

export interface SessionStoreOptions {
  /** The project whose sessions these are (kodo uses the working directory). */
  projectRoot: string;
  env?: NodeJS.ProcessEnv;
  /** Override of `~/.kodo/sessions/<project id>` (tests). */
  dir?: string;
}

/** A `--resume`/`--delete-session` argument that names no session (exit 42 in the CLI). */
export class InvalidSessionError extends Error {
  override readonly name = 'InvalidSessionError';
}

/**
 * A project's recorded sessions: listing, finding by `latest`, index or id, deleting, and
 * recorders for new or resumed sessions. Named save points live next to them (`checkpoints()`).
 */
export class SessionStore {
  readonly dir: string;
  readonly projectRoot: string;

  constructor(options: SessionStoreOptions) {
    this.projectRoot = options.projectRoot;
    this.dir = options.dir ?? sessionsDir(options.projectRoot, options.env);
  }

  /** Oldest first; index i of the list is session number i + 1. */
  list(): SessionSummary[] {
    return listSessions(this.dir);
  }

  /** The session with this exact id. Only files named after its first 8 characters are read. */
  findById(id: string): SessionSummary | undefined {
    const suffix = `-${id.slice(0, 8)}.jsonl`;
    for (const name of sessionFileNames(this.dir)) {
      if (!name.endsWith(suffix)) continue;
      const summary = readSessionSummary(join(this.dir, name));
      if (summary?.id === id) return summary;
    }
    return undefined;
  }

  /**
   * `latest` (undefined when there are no sessions), a 1-based index, or a session id. Anything
   * else throws InvalidSessionError with the message the CLI prints.
   */
  resolve(identifier: string): SessionSummary | undefined {
    const value = identifier.trim();
    if (value === 'latest') return this.list().at(-1);
    if (/^\d+$/.test(value)) {
      const sessions = this.list();
      const index = Number(value);
      if (index >= 1 && index <= sessions.length) return sessions[index - 1];
      // A numeric id is still an id.
      const byId = this.findById(value);
      if (byId) return byId;
      throw this.invalidIdentifier(identifier);
    }
    const found = this.findById(value);
    if (!found) throw this.invalidIdentifier(identifier);
    return found;
  }

  /** Deletes the session's log; returns what was deleted. */
  delete(identifier: string): SessionSummary {
    const session = this.resolve(identifier);
    if (!session) throw this.invalidIdentifier(identifier);
    rmSync(session.file, { force: true });
    return session;
  }

  /** A recorder for a new session; its file appears with the first record. */
  newRecorder(options: {
    sessionId: string;
    startTime?: Date;
    onError?: (message: string) => void;
    importedFrom?: ImportedFrom;
  }): SessionRecorder {
    const startTime = options.startTime ?? new Date();
    return new SessionRecorder({
      file: join(this.dir, sessionFileName(options.sessionId, startTime)),
      sessionId: options.sessionId,
      projectRoot: this.projectRoot,
      ...(options.onError ? { onError: options.onError } : {}),
      ...(options.importedFrom ? { importedFrom: options.importedFrom } : {}),
    });
  }

  /** Loads a recorded session and a recorder that appends to the same file. */
  async resume(
    session: SessionSummary,
    options: LoadSessionOptions & { onError?: (message: string) => void } = {},
  ): Promise<{ loaded: LoadedSession; recorder: SessionRecorder }> {
    // Loaded on demand: a run that starts a new session never needs the reader.
    const { loadSession } = await loadPart.sessionResume();
    const loaded = await loadSession(session.file, options);
    const recorder = new SessionRecorder({
      file: session.file,
      sessionId: loaded.metadata.sessionId,
      projectRoot: this.projectRoot,
      resume: { history: loaded.history, lastRecordId: loaded.lastRecordId },
      ...(options.onError ? { onError: options.onError } : {}),
    });
    return { loaded, recorder };
  }

  checkpoints(): ChatCheckpoints {
    return new ChatCheckpoints(join(this.dir, 'checkpoints'));
  }

  /** The error for an identifier that names no session (`--resume`'s message, as Gemini CLI words it). */
  invalidIdentifier(identifier: string): InvalidSessionError {
    return new InvalidSessionError(
      `Invalid session identifier "${identifier}".\n  Searched for sessions in ${this.dir}.\n  Use --list-sessions to see available sessions, then use --resume {number}, --resume {uuid}, or --resume latest.`,
    );
  }
}
