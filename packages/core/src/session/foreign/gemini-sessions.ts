/**
 * Gemini CLI's saved sessions (0.61; older layouts too), read for `kodo --list-sessions` and
 * `--resume`. Facts of the format:
 *
 * - `<gemini home>/tmp/<project id>/chats/session-<time>-<id>.jsonl`: a metadata line
 *   (`sessionId`, `projectHash`, `startTime`, `kind`), then message records, upserts, `$rewindTo`
 *   and `$set` lines: the log format kodo's own sessions use, so kodo's loader reads it. Older
 *   versions wrote one JSON object (`….json`) with a `messages` list.
 * - The project id is a short name kept in `<gemini home>/projects.json` (`projects`: root → id),
 *   also written as `.project_root` into the project's folder; versions before that used the
 *   SHA-256 of the root path, which Gemini CLI still migrates from.
 * - `gemini` records keep their thought summaries in `thoughts` and their calls, with results,
 *   in `toolCalls`; function responses are also recorded as user records.
 * - The first user record is Gemini CLI's `<session_context>` preamble; slash commands are
 *   recorded as user records too. Gemini CLI leaves both out when it resumes, and so does kodo.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { geminiHome } from '../../config/paths';
import type { Content, Part } from '../../contracts/messages';
import { projectHash } from '../../utils/project-hash';
import { parseJsonLine, readHeadLines } from '../jsonl-lines';
import { isMessageRecord, isMetadata, type MessageRecord, recordText } from '../records';
import { historyFromMessages, loadSession } from '../resume';
import { titleOf } from '../session-files';
import { isWrappedContext } from './conversation';
import { filesIn, headOutcome, listingOf, modifiedAt, type SessionHead } from './listing';
import { geminiToolCall } from './tool-calls';
import type { ForeignListing, ForeignSessionFormat, ImportedConversation } from './types';

const SESSION_FILE = /^session-.*\.jsonl?$/;

export const geminiSessions: ForeignSessionFormat = {
  origin: 'gemini',
  list: listGeminiSessions,
  read: readGeminiSession,
};

/** The project's `chats` folders: by its registered id, its `.project_root` marker, its old hash. */
export function geminiChatDirs(projectRoot: string, env: NodeJS.ProcessEnv): string[] {
  const home = geminiHome(env);
  const root = resolve(projectRoot);
  const ids = new Set<string>();
  const registered = registeredId(home, root);
  if (registered) ids.add(registered);
  else for (const id of markedIds(home, root)) ids.add(id);
  ids.add(projectHash(root));
  return [...ids].map((id) => join(home, 'tmp', id, 'chats')).filter((dir) => existsSync(dir));
}

function registeredId(home: string, root: string): string | undefined {
  try {
    const registry = JSON.parse(readFileSync(join(home, 'projects.json'), 'utf8')) as {
      projects?: Record<string, unknown>;
    };
    const id = registry.projects?.[root];
    return typeof id === 'string' && /^[\w.-]+$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Ids whose folder says (in `.project_root`) that it belongs to this root. */
function markedIds(home: string, root: string): string[] {
  const tmp = join(home, 'tmp');
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return [];
  }
  return names.filter((name) => {
    try {
      return resolve(readFileSync(join(tmp, name, '.project_root'), 'utf8').trim()) === root;
    } catch {
      return false;
    }
  });
}

function listGeminiSessions(projectRoot: string, env: NodeJS.ProcessEnv): ForeignListing {
  const files = filesIn(geminiChatDirs(projectRoot, env), (name) => SESSION_FILE.test(name));
  return listingOf('gemini', files, (file) => (file.endsWith('.json') ? legacyHead(file) : logHead(file)));
}

/**
 * The session's id, start and first prompt from the head of a log; a reason when the file is
 * damaged; undefined when it holds no prompt or is a subagent's.
 */
function logHead(file: string): SessionHead | string | undefined {
  let result: SessionHead | string | undefined;
  let metadata: { sessionId: string; startTime?: unknown; kind?: unknown } | undefined;
  const lines = readHeadLines(file, (line) => {
    const parsed = parseJsonLine(line);
    if (!metadata) {
      if (!isMetadata(parsed)) {
        result = 'its first line is not a session header (a damaged file?)';
        return 'stop';
      }
      metadata = parsed;
      if (metadata.kind === 'subagent') return 'stop';
      return 'more';
    }
    const set = (parsed as { $set?: { messages?: unknown } } | undefined)?.$set;
    const candidates = Array.isArray(set?.messages) ? set.messages : [parsed];
    for (const record of candidates) {
      const prompt = isMessageRecord(record) ? promptText(record) : undefined;
      if (prompt !== undefined) {
        result = {
          id: metadata.sessionId,
          startTime: isoTime(metadata.startTime, file),
          title: titleOf(prompt),
        };
        return 'stop';
      }
    }
    return 'more';
  });
  return headOutcome(file, lines, result);
}

/** An old single-object session file (`session-….json`). */
function legacyHead(file: string): SessionHead | string | undefined {
  const session = readLegacy(file);
  if (typeof session === 'string') return session;
  const first = session.messages.map(promptText).find((text) => text !== undefined);
  if (first === undefined) return undefined;
  return { id: session.sessionId, startTime: isoTime(session.startTime, file), title: titleOf(first) };
}

function readLegacy(
  file: string,
): { sessionId: string; startTime?: unknown; messages: MessageRecord[] } | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return 'it is not complete JSON (a damaged file?)';
  }
  const session = parsed as { sessionId?: unknown; startTime?: unknown; messages?: unknown } | null;
  if (typeof session?.sessionId !== 'string' || !Array.isArray(session.messages)) {
    return 'it has no session id or no messages';
  }
  return {
    sessionId: session.sessionId,
    startTime: session.startTime,
    messages: session.messages.filter(isMessageRecord),
  };
}

/** A user record's text when the person typed it (not a preamble, hook context or command). */
function promptText(record: MessageRecord): string | undefined {
  if (record.type !== 'user') return undefined;
  const text = (record.displayContent ?? recordText(record.content)).trim();
  if (text === '' || text.startsWith('/') || text.startsWith('?') || isWrappedContext(text)) return undefined;
  if (typeof record.content !== 'string' && record.content.some((part) => part.functionResponse)) {
    return undefined;
  }
  return text;
}

/** A record the conversation keeps: answers, and prompts that are not preambles or commands. */
function conversational(record: MessageRecord): boolean {
  if (record.type === 'gemini') return true;
  if (record.type !== 'user') return false;
  if (typeof record.content !== 'string' && record.content.some((part) => part.functionResponse)) return true;
  return promptText(record) !== undefined;
}

async function readGeminiSession(file: string): Promise<ImportedConversation> {
  let messages: MessageRecord[];
  let warnings: string[] = [];
  if (file.endsWith('.json')) {
    const session = readLegacy(file);
    if (typeof session === 'string') throw new Error(`${file}: ${session}.`);
    messages = session.messages;
  } else {
    const loaded = await loadSession(file);
    messages = loaded.messages;
    warnings = loaded.warnings;
  }
  const kept = messages.filter(conversational);
  const { history } = historyFromMessages(kept);
  const model = kept.findLast((record) => record.type === 'gemini' && record.model)?.model;
  return { history: renameCalls(history), ...(model ? { model } : {}), warnings };
}

/** Calls of older Gemini CLI versions, and their responses, under today's names. */
function renameCalls(history: Content[]): Content[] {
  const renamed = new Map<string, string>();
  return history.map((content) => ({
    ...content,
    parts: content.parts.map((part): Part => {
      const { functionCall, functionResponse } = part;
      if (functionCall) {
        const call = geminiToolCall(functionCall.name, functionCall.args ?? {});
        if (call.name === functionCall.name && call.args === functionCall.args) return part;
        renamed.set(functionCall.name, call.name);
        return { ...part, functionCall: { ...functionCall, name: call.name, args: call.args } };
      }
      const name = functionResponse ? renamed.get(functionResponse.name) : undefined;
      return name && functionResponse ? { ...part, functionResponse: { ...functionResponse, name } } : part;
    }),
  }));
}

function isoTime(value: unknown, file: string): string {
  const time = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (!Number.isNaN(time.getTime())) return time.toISOString();
  return (modifiedAt(file) ?? new Date(0)).toISOString();
}
