import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { kodoHome } from '../config/paths';
import { projectId } from '../config/project';
import { parseJsonLine, readHeadLines } from './jsonl-lines';
import {
  isMessageRecord,
  isMetadata,
  recordText,
  SESSION_FILE_PATTERN,
  type SessionMetadata,
} from './records';

/** One recorded session, as the list shows it (only the head of its file is read). */
export interface SessionSummary {
  id: string;
  file: string;
  startTime: string;
  /** When the file was last written (its mtime): what "2 hours ago" refers to. */
  lastUpdated: Date;
  /** The first prompt as typed, on one line, at most 100 characters. */
  title: string;
}

/** `~/.kodo/sessions/<project id>` (`KODO_HOME` relocates `~/.kodo`). */
export function sessionsDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(kodoHome(env), 'sessions', projectId(projectRoot));
}

const TITLE_CHARS = 100;

/**
 * The sessions in a directory, oldest first (by start time), so index 1 is the oldest and the
 * newest has the highest number. Files without a readable metadata line or
 * without any user message are left out.
 */
export function listSessions(dir: string): SessionSummary[] {
  const names = sessionFileNames(dir);
  const sessions: SessionSummary[] = [];
  for (const name of names) {
    const summary = readSessionSummary(join(dir, name));
    if (summary) sessions.push(summary);
  }
  return sessions.sort(byStartTime);
}

/** Oldest first; ties (same start time) fall back to the file name so the numbering is stable. */
export function byStartTime(a: SessionSummary, b: SessionSummary): number {
  if (a.startTime !== b.startTime) return a.startTime < b.startTime ? -1 : 1;
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

/** Names of the session logs in a directory (none when it does not exist). */
export function sessionFileNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => SESSION_FILE_PATTERN.test(name));
  } catch {
    return [];
  }
}

/** One session file's summary, or undefined when it is not a readable session log. */
export function readSessionSummary(file: string): SessionSummary | undefined {
  const head = readHead(file);
  if (!head) return undefined;
  let lastUpdated: Date;
  try {
    lastUpdated = statSync(file).mtime;
  } catch {
    return undefined;
  }
  return {
    id: head.metadata.sessionId,
    file,
    startTime: head.metadata.startTime,
    lastUpdated,
    title: head.title,
  };
}

/** The metadata line and the first prompt's title, from the head of the file. */
function readHead(file: string): { metadata: SessionMetadata; title: string } | undefined {
  let metadata: SessionMetadata | undefined;
  let title: string | undefined;
  let valid = true;
  readHeadLines(file, (line) => {
    const parsed = parseJsonLine(line);
    if (!metadata) {
      if (!isMetadata(parsed)) {
        valid = false;
        return 'stop';
      }
      metadata = parsed;
      return 'more';
    }
    if (isMessageRecord(parsed) && parsed.type === 'user') {
      title = titleOf(parsed.displayContent ?? recordText(parsed.content));
      return 'stop';
    }
    return 'more';
  });
  return valid && metadata && title !== undefined ? { metadata, title } : undefined;
}

/** A prompt as a list shows it: on one line, at most 100 characters. */
export function titleOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return '(no text)';
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 3)}...` : line;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", "4 months ago". */
export function relativeTime(then: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  const steps: [number, string][] = [
    [60 * 60 * 24 * 365, 'year'],
    [60 * 60 * 24 * 30, 'month'],
    [60 * 60 * 24, 'day'],
    [60 * 60, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of steps) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/**
 * `--list-sessions` output, in Gemini CLI's format; another tool's session is marked by its
 * origin before the title (`[claude] fix the tests`).
 */
export function formatSessionList(
  sessions: readonly (SessionSummary & { origin?: string })[],
  options: { now?: Date; currentId?: string } = {},
): string {
  if (sessions.length === 0) return 'No previous sessions found for this project.\n';
  const lines = sessions.map((session, index) => {
    const when = relativeTime(session.lastUpdated, options.now);
    const current = session.id === options.currentId ? ', current' : '';
    const origin = session.origin ? `[${session.origin}] ` : '';
    return `  ${index + 1}. ${origin}${session.title} (${when}${current}) [${session.id}]`;
  });
  return `\nAvailable sessions for this project (${sessions.length}):\n${lines.join('\n')}\n`;
}
