import { basename } from 'node:path';
import type { Content, Part } from '../contracts/messages';
import type { TodoItem } from '../tools/tool';
import { repairHistory } from './history-repair';
import { DamagedLines, readJsonLines } from './jsonl-lines';
import { OutputWindow } from './output-window';
import {
  isMessageRecord,
  isMetadata,
  type MessageRecord,
  type RecordedThought,
  type RecordedToolCall,
  type SessionMetadata,
} from './records';
import type { SessionStatsSnapshot } from './stats';

export interface LoadSessionOptions {
  /**
   * Project temp dir: tool outputs older than the newest `protectedTokens` are saved under it and
   * replaced by a preview while loading. Without it nothing is masked.
   */
  spillDir?: string;
  /** Newest tool-output tokens kept whole (50,000, as live masking keeps). */
  protectedTokens?: number;
}

export interface LoadedSession {
  metadata: SessionMetadata;
  file: string;
  /** A valid history to continue from (calls paired with responses, roles alternating). */
  history: Content[];
  /** The session's messages after upserts, rewinds and `$set`s (for front ends that replay it). */
  messages: MessageRecord[];
  /** Id of the record behind the last history entry, when that entry is exactly that record. */
  lastRecordId: string | undefined;
  stats: SessionStatsSnapshot | undefined;
  todos: TodoItem[] | undefined;
  /** Problems skipped while reading (a torn last line), one message each. */
  warnings: string[];
  /** Tool outputs replaced by a preview and a file while loading. */
  maskedOutputs: number;
}

/**
 * Reads a session log line by line (never the whole file at once), applies upserts, `$rewindTo`
 * and `$set`, and rebuilds a valid history. Large old tool outputs are masked as they stream past
 * (see OutputWindow), so resuming a long session holds its newest outputs and previews of the
 * rest, never the whole file's outputs.
 */
export async function loadSession(file: string, options: LoadSessionOptions = {}): Promise<LoadedSession> {
  const state = new LogState();
  let window: OutputWindow | undefined;
  const damage = new DamagedLines();
  for await (const parsed of readJsonLines(file, damage)) {
    if (!state.metadata) {
      if (!isMetadata(parsed))
        throw new Error(`${file} is not a session log (its first line has no sessionId).`);
      state.metadata = parsed;
      if (options.spillDir) {
        window = new OutputWindow({
          spillDir: options.spillDir,
          sessionId: parsed.sessionId,
          protectedTokens: options.protectedTokens ?? 50_000,
        });
      }
      continue;
    }
    state.apply(parsed, window);
  }
  if (!state.metadata) throw new Error(`${file} is empty: no session was recorded in it.`);
  const warnings = damage.warnings(file);

  const { history, lastRecordId } = historyFromMessages(state.messages);
  // Counters and todos are restored only in the shape the session keeps them: a damaged or
  // foreign value would break the first tool call after resuming.
  const stats = isStatsSnapshot(state.metadata.stats) ? state.metadata.stats : undefined;
  const todos = isTodoList(state.metadata.todos) ? state.metadata.todos : undefined;
  if (state.metadata.stats !== undefined && !stats) {
    warnings.push(`The usage counters in ${basename(file)} are unreadable; they start again from zero.`);
  }
  return {
    metadata: state.metadata,
    file,
    history,
    messages: state.messages,
    lastRecordId,
    stats,
    todos,
    warnings,
    maskedOutputs: window?.maskedCount ?? 0,
  };
}

/** The message list as the log's lines say it is now. */
class LogState {
  metadata: SessionMetadata | undefined;
  messages: MessageRecord[] = [];
  private readonly positions = new Map<string, number>();

  apply(line: unknown, window: OutputWindow | undefined): void {
    if (isMessageRecord(line)) {
      const at = this.positions.get(line.id);
      if (at === undefined) {
        this.positions.set(line.id, this.messages.length);
        this.messages.push(line);
      } else {
        window?.forget([this.messages[at]!]);
        this.messages[at] = line;
      }
      window?.add(line, responsePartsOf(line));
      return;
    }
    const record = line as { $rewindTo?: unknown; $set?: Record<string, unknown> } | null;
    if (typeof record?.$rewindTo === 'string') {
      const at = this.positions.get(record.$rewindTo) ?? 0;
      this.truncate(at, window);
      return;
    }
    if (record?.$set && typeof record.$set === 'object') {
      const { messages, ...rest } = record.$set;
      Object.assign(this.metadata!, rest);
      if (Array.isArray(messages)) {
        this.truncate(0, window);
        for (const message of messages) if (isMessageRecord(message)) this.apply(message, window);
      }
    }
  }

  private truncate(at: number, window: OutputWindow | undefined): void {
    const dropped = this.messages.splice(at);
    for (const message of dropped) this.positions.delete(message.id);
    window?.forget(dropped);
  }
}

/** Function responses a record holds: in its content, or in Gemini CLI-style `toolCalls` results. */
function responsePartsOf(record: MessageRecord): Part[] {
  const parts: Part[] = [];
  if (Array.isArray(record.content)) {
    for (const part of record.content) if (part?.functionResponse) parts.push(part);
  }
  for (const call of record.toolCalls ?? []) {
    for (const part of call.result ?? []) if (part?.functionResponse) parts.push(part);
  }
  return parts;
}

/**
 * Model history from the messages (info, warning and error lines are for people only), repaired
 * so that it can be sent; also the id of the record behind its last entry.
 */
export function historyFromMessages(messages: readonly MessageRecord[]): {
  history: Content[];
  lastRecordId: string | undefined;
} {
  const contents: Content[] = [];
  const origin = new Map<Content, string>();
  for (const message of messages) {
    if (message.type !== 'user' && message.type !== 'gemini') continue;
    const parts = typeof message.content === 'string' ? textParts(message.content) : message.content;
    if (message.type === 'user') {
      const content: Content = { role: 'user', parts };
      origin.set(content, message.id);
      contents.push(content);
      continue;
    }
    // Gemini CLI keeps calls (with their results) and thought summaries beside the model's parts.
    const calls = parts.some((part) => part.functionCall) ? [] : (message.toolCalls ?? []);
    const thoughts = parts.some((part) => part.thought) ? [] : (message.thoughts ?? []).flatMap(thoughtPart);
    if (calls.length > 0 || thoughts.length > 0) {
      contents.push({ role: 'model', parts: [...thoughts, ...parts, ...calls.map(callPart)] });
      if (calls.length > 0) contents.push({ role: 'user', parts: calls.flatMap(resultParts) });
      continue;
    }
    const content: Content = { role: 'model', parts };
    origin.set(content, message.id);
    contents.push(content);
  }
  const history = repairHistory(contents);
  const last = history.at(-1);
  return { history, lastRecordId: last ? origin.get(last) : undefined };
}

/** A string content's parts: none when it is empty (Gemini CLI records a call-only turn as ""). */
function textParts(text: string): Part[] {
  return text === '' ? [] : [{ text }];
}

/** A Gemini CLI thought summary as a thought part (`**subject** description`, as Gemini CLI resumes it). */
function thoughtPart(thought: RecordedThought): Part[] {
  const description = thought?.description?.trim() ?? '';
  const text = thought?.subject ? `**${thought.subject}** ${description}` : description;
  return text === '' ? [] : [{ text, thought: true }];
}

function callPart(call: RecordedToolCall): Part {
  return { functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.args ?? {} } };
}

function resultParts(call: RecordedToolCall): Part[] {
  // A call without a result gets its cancelled response from repairHistory.
  return (call.result ?? []).filter((part) => part && typeof part === 'object');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isStatsSnapshot(value: unknown): value is SessionStatsSnapshot {
  if (!isObject(value) || !isObject(value.models) || !isObject(value.tools) || !isObject(value.files)) {
    return false;
  }
  const { tools } = value;
  return (
    typeof tools.totalCalls === 'number' &&
    isObject(tools.byName) &&
    isObject(tools.totalDecisions) &&
    Object.values(value.models).every(
      (model) => isObject(model) && isObject(model.api) && isObject(model.tokens),
    )
  );
}

const TODO_STATUSES = new Set(['pending', 'in_progress', 'completed', 'cancelled', 'blocked']);

function isTodoList(value: unknown): value is TodoItem[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item) =>
        isObject(item) && typeof item.description === 'string' && TODO_STATUSES.has(String(item.status)),
    )
  );
}
