import type { Content, Part, UsageMetadata } from '../contracts/messages';
import type { TodoItem } from '../tools/tool';
import type { SessionStatsSnapshot } from './stats';

/**
 * The session log's line types (Gemini CLI's format). A file is append-only JSONL: one metadata line,
 * then message records, upserts (a message line whose id was seen before replaces it),
 * `$rewindTo` (drop a message and all after it) and `$set` (merge into the metadata; `messages`
 * replaces the whole list).
 */
export interface SessionMetadata {
  sessionId: string;
  /** SHA-256 hex of the project root path. */
  projectHash: string;
  startTime: string;
  lastUpdated: string;
  kind: 'main' | 'subagent';
  directories?: string[];
  /** kodo: the session's counters, restored on resume (latest `$set` wins). */
  stats?: SessionStatsSnapshot;
  /** kodo: the `write_todos` list, restored on resume. */
  todos?: TodoItem[];
  summary?: string;
  /** kodo: the other tool's session this one was imported from (`kodo --resume` of it). */
  importedFrom?: ImportedFrom;
}

/** Where an imported session came from; the original file is only ever read. */
export interface ImportedFrom {
  origin: 'gemini' | 'claude' | 'codex';
  sessionId: string;
  file: string;
}

export type MessageType = 'user' | 'gemini' | 'info' | 'error' | 'warning';

/** How a tool call ended, kept next to its function response for front ends that replay a session. */
export interface ToolResultSummary {
  id: string;
  name: string;
  status: 'success' | 'error' | 'cancelled';
  /** What the person saw, cut to a preview (the model's copy is in the function response). */
  resultDisplay?: string;
  durationMs?: number;
}

/** Gemini CLI's way of recording calls on a model message (read for compatibility). */
export interface RecordedToolCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
  result?: Part[] | null;
  status?: string;
}

export interface MessageRecord {
  id: string;
  timestamp: string;
  type: MessageType;
  content: Part[] | string;
  /** What the person typed, when the content sent to the model differs (context prepended). */
  displayContent?: string;
  tokens?: TokenRecord;
  model?: string;
  /** kodo, on function-response messages: how each call ended. */
  toolResults?: ToolResultSummary[];
  /** Gemini CLI, on `gemini` messages: calls with their results. */
  toolCalls?: RecordedToolCall[];
  /** Gemini CLI, on `gemini` messages: the thought summaries shown while the model thought. */
  thoughts?: RecordedThought[];
}

/** Gemini CLI's record of a thought (its text is not in `content`). */
export interface RecordedThought {
  subject?: string;
  description?: string;
}

export interface TokenRecord {
  input: number;
  output: number;
  cached: number;
  thoughts?: number;
  tool?: number;
  total: number;
}

export interface RewindRecord {
  $rewindTo: string;
}

export interface SetRecord {
  $set: Partial<SessionMetadata> & { messages?: MessageRecord[] };
}

export type SessionLine = SessionMetadata | MessageRecord | RewindRecord | SetRecord;

/** `session-<YYYY-MM-DDTHH-MM>-<first 8 of id>.jsonl`, the time in UTC minutes. */
export function sessionFileName(sessionId: string, startTime: Date): string {
  const minutes = startTime.toISOString().slice(0, 16).replace(/:/g, '-');
  return `session-${minutes}-${sessionId.slice(0, 8)}.jsonl`;
}

export const SESSION_FILE_PATTERN = /^session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[A-Za-z0-9_-]{1,8}\.jsonl$/;

/** Session ids kodo accepts from `--session-id` (they end up in file names). */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

export function tokenRecord(usage: UsageMetadata): TokenRecord {
  return {
    input: usage.promptTokenCount ?? 0,
    output: usage.candidatesTokenCount ?? 0,
    cached: usage.cachedContentTokenCount ?? 0,
    ...(usage.thoughtsTokenCount ? { thoughts: usage.thoughtsTokenCount } : {}),
    ...(usage.toolUsePromptTokenCount ? { tool: usage.toolUsePromptTokenCount } : {}),
    total: usage.totalTokenCount ?? 0,
  };
}

export function messageRecord(
  content: Content,
  id: string,
  timestamp: string,
  extra: Partial<MessageRecord> = {},
): MessageRecord {
  return {
    id,
    timestamp,
    type: content.role === 'model' ? 'gemini' : 'user',
    content: content.parts,
    ...extra,
  };
}

/** The plain text of a record's content (a string, or its non-thought text parts). */
export function recordText(content: Part[] | string): string {
  if (typeof content === 'string') return content;
  return content
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('\n');
}

export function isMessageRecord(line: unknown): line is MessageRecord {
  const record = line as Partial<MessageRecord> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.id === 'string' &&
    typeof record.type === 'string' &&
    (typeof record.content === 'string' || Array.isArray(record.content))
  );
}

export function isMetadata(line: unknown): line is SessionMetadata {
  const record = line as Partial<SessionMetadata> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.sessionId === 'string' &&
    !('id' in record) &&
    !('$set' in record)
  );
}
