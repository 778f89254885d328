import { appendFileSync, closeSync, mkdirSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Content, Part, UsageMetadata } from '../contracts/messages';
import type { CompletedToolCall } from '../scheduler/scheduler';
import type { TodoItem } from '../tools/tool';
import { newSessionId } from '../utils/ids';
import { projectHash } from '../utils/project-hash';
import {
  type ImportedFrom,
  type MessageRecord,
  type MessageType,
  messageRecord,
  recordText,
  type SessionMetadata,
  type ToolResultSummary,
  tokenRecord,
} from './records';
import type { SessionStatsSnapshot } from './stats';

/** What the Session shows a recorder at a turn boundary. Nothing here may be kept or changed. */
export interface TurnBoundary {
  /** The chat's live history. */
  history: readonly Content[];
  /** The chat's rewrite counter: a change means the history was replaced, not appended to. */
  rewrites: number;
  /** User parts about to join the history (a prompt, or the responses of a tool batch). */
  pending?: Part[];
  /** The prompt as typed, when `pending` is a prompt. */
  displayText?: string;
  /** How the calls whose responses are `pending` ended. */
  toolCalls?: readonly CompletedToolCall[];
  /** The model in use, and the usage of the model turn that just ended. */
  model: string;
  usage?: UsageMetadata;
  stats: () => Readonly<SessionStatsSnapshot>;
  todos: () => TodoItem[];
}

/** Observes a Session's turn boundaries (see `SessionOptions.recorder`). */
export interface TurnRecorder {
  record(boundary: TurnBoundary): void;
}

export interface SessionRecorderOptions {
  file: string;
  sessionId: string;
  projectRoot: string;
  /** Continuing an existing file: the history the resumed chat starts from. */
  resume?: {
    history: readonly Content[];
    /** Id of the record behind the last history entry, when that entry is exactly one record. */
    lastRecordId: string | undefined;
  };
  /** Told once when writing fails; recording then stops and the session goes on. */
  onError?: (message: string) => void;
  /** Written into the metadata line of a session imported from another tool. */
  importedFrom?: ImportedFrom;
  now?: () => Date;
  newId?: () => string;
  /** The appends; tests pass one that fails midway (a full disk). */
  append?: (file: string, text: string) => void;
}

const appendUtf8 = (file: string, text: string) =>
  appendFileSync(file, text, { encoding: 'utf8', mode: 0o600 });

/** Display text kept per tool call: enough to show what happened, never a second full copy. */
const DISPLAY_PREVIEW_CHARS = 2_000;

/**
 * Writes a session's JSONL log (line types in records.ts) as it happens, one `appendFileSync` per turn
 * boundary, so a crash or `kill -9` after a boundary loses nothing. Appended history entries
 * become new records; an entry that grew (a prompt merged into the previous user turn) is
 * upserted under its id; a rewrite that replaced a few entries (masking) upserts those; any other
 * rewrite (compression, clearing) becomes one `$set` with the whole message list. The recorder
 * keeps the last entry's serialised parts and, per entry, its record id and the history object it
 * recorded (compared by identity, never serialised), so it never re-serialises the whole history.
 */
export class SessionRecorder implements TurnRecorder {
  readonly file: string;
  readonly sessionId: string;
  private readonly projectRoot: string;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly onError: ((message: string) => void) | undefined;
  private readonly importedFrom: ImportedFrom | undefined;
  private readonly append: (file: string, text: string) => void;
  /** The file exists with its metadata line (true when resuming). */
  private opened: boolean;
  private failed = false;
  /**
   * The file's size after this recorder's last append, which always ends a line; unknown before
   * its first append to an existing file, which may end torn (the previous run died mid-write).
   */
  private size: number | undefined;
  /** History entries the file holds, and what it holds of the last one. */
  private count = 0;
  private last:
    | {
        id: string | undefined;
        role: Content['role'];
        partCount: number;
        partsJson: string;
        extra: Partial<MessageRecord>;
      }
    | undefined;
  private seenRewrites = 0;
  /** Per recorded entry: its record id, and the chat's object it was recorded from, when known. */
  private ids: (string | undefined)[] = [];
  private sources: (Content | undefined)[] = [];
  private lastStateJson = '';
  /** The typed text of a first prompt whose record waits for the file to be created. */
  private deferredDisplay: { index: number; text: string } | undefined;

  constructor(options: SessionRecorderOptions) {
    this.file = options.file;
    this.sessionId = options.sessionId;
    this.projectRoot = options.projectRoot;
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? newSessionId;
    this.onError = options.onError;
    this.importedFrom = options.importedFrom;
    this.append = options.append ?? appendUtf8;
    this.opened = options.resume !== undefined;
    const resumed = options.resume?.history;
    if (resumed && resumed.length > 0) {
      const lastEntry = resumed[resumed.length - 1]!;
      this.count = resumed.length;
      this.ids = Array.from({ length: resumed.length }, () => undefined);
      this.ids[resumed.length - 1] = options.resume?.lastRecordId;
      this.sources = Array.from({ length: resumed.length }, () => undefined);
      this.last = {
        id: options.resume?.lastRecordId,
        role: lastEntry.role,
        partCount: lastEntry.parts.length,
        partsJson: JSON.stringify(lastEntry.parts),
        extra: {},
      };
    }
  }

  record(boundary: TurnBoundary): void {
    if (this.failed) return;
    // A new log is created at the first boundary after the first request, not before it: file
    // creation there would sit on the path to the first request (kodo's startup budget). Only a
    // crash during the very first request can lose the first prompt.
    if (!this.opened && boundary.pending && !boundary.toolCalls) {
      const index = virtualHistory(boundary.history, boundary.pending).pendingIndex;
      if (boundary.displayText !== undefined) this.deferredDisplay = { index, text: boundary.displayText };
      return;
    }
    try {
      const timestamp = this.now().toISOString();
      const view = virtualHistory(boundary.history, boundary.pending);
      const lines: string[] = [];
      const deferred = this.deferredDisplay;
      const extraFor = (index: number): Partial<MessageRecord> => {
        if (index === view.pendingIndex) return pendingExtra(boundary, view.at(index));
        if (index === deferred?.index) return displayExtra(deferred.text, view.at(index));
        return {};
      };
      const before = this.count;
      const kept =
        boundary.rewrites === this.seenRewrites
          ? this.appendable(view, lines, timestamp, extraFor)
          : this.replaced(view, lines, timestamp, boundary, extraFor);
      if (!kept) {
        lines.length = 0;
        lines.push(this.checkpoint(view, timestamp, boundary, extraFor));
      } else {
        for (let index = this.count; index < view.length; index += 1) {
          const entry = view.at(index);
          const extra: Partial<MessageRecord> = {
            ...(entry.role === 'model' ? modelExtra(boundary) : {}),
            ...extraFor(index),
          };
          const id = this.newId();
          lines.push(line(messageRecord(entry, id, timestamp, extra)));
          this.remember(entry, id, extra);
          this.ids[index] = id;
          this.sources[index] = entry;
        }
        this.count = view.length;
      }
      this.seenRewrites = boundary.rewrites;
      // The pending entry recorded last time is the chat's own object now: note which it is.
      for (
        let index = Math.max(0, Math.min(before, this.count) - 1);
        index < boundary.history.length;
        index += 1
      ) {
        if (index < this.count) this.sources[index] = boundary.history[index];
      }
      const state = JSON.stringify({ stats: boundary.stats(), todos: boundary.todos() });
      if (lines.length > 0 || state !== this.lastStateJson) {
        this.lastStateJson = state;
        lines.push(`{"$set":{"lastUpdated":${JSON.stringify(timestamp)},${state.slice(1)}}\n`);
      }
      this.write(lines, timestamp);
      this.deferredDisplay = undefined;
    } catch (error) {
      this.failed = true;
      this.onError?.(`Session recording stopped: ${(error as Error).message}`);
    }
  }

  /** An `info`, `warning` or `error` line for front ends; not part of the model's history. */
  note(type: Exclude<MessageType, 'user' | 'gemini'>, text: string): void {
    if (this.failed) return;
    try {
      const timestamp = this.now().toISOString();
      this.write([line({ id: this.newId(), timestamp, type, content: text })], timestamp);
    } catch (error) {
      this.failed = true;
      this.onError?.(`Session recording stopped: ${(error as Error).message}`);
    }
  }

  /**
   * Checks the last recorded entry against the history: unchanged (nothing to do), grown (an
   * upsert goes into `lines`) or something else (false: the caller writes a checkpoint).
   */
  private appendable(
    view: VirtualHistory,
    lines: string[],
    timestamp: string,
    extraFor: (index: number) => Partial<MessageRecord>,
  ): boolean {
    const last = this.last;
    if (this.count === 0 || !last) return view.length >= this.count;
    const index = this.count - 1;
    if (view.length <= index) return false;
    const entry = view.at(index);
    if (entry.role !== last.role || entry.parts.length < last.partCount) return false;
    const prefix = entry.parts.length === last.partCount ? entry.parts : entry.parts.slice(0, last.partCount);
    if (JSON.stringify(prefix) !== last.partsJson) return false;
    if (entry.parts.length === last.partCount) return true;
    if (last.id === undefined) return false;
    const extra = { ...last.extra, ...extraFor(index) };
    lines.push(line(messageRecord(entry, last.id, timestamp, extra)));
    this.remember(entry, last.id, extra);
    return true;
  }

  /**
   * After a rewrite: when the history kept its length and only a few entries are new objects
   * (masking replaces old tool outputs), upserts those under their ids into `lines`. False when
   * the caller must write a checkpoint instead (shorter history, many or unknown entries).
   */
  private replaced(
    view: VirtualHistory,
    lines: string[],
    timestamp: string,
    boundary: TurnBoundary,
    extraFor: (index: number) => Partial<MessageRecord>,
  ): boolean {
    if (this.count === 0 || view.length < this.count) return false;
    const lastIndex = this.count - 1;
    const changed: number[] = [];
    for (let index = 0; index < lastIndex; index += 1) {
      if (this.sources[index] === view.at(index)) continue;
      if (this.ids[index] === undefined) return false;
      changed.push(index);
    }
    // The last entry: unchanged, grown (`appendable` writes its upsert), or else upserted whole.
    const grown: string[] = [];
    if (!this.appendable(view, grown, timestamp, extraFor)) {
      if (this.ids[lastIndex] === undefined) return false;
      changed.push(lastIndex);
    }
    // Past half the history, one `$set` is the smaller record.
    if (changed.length * 2 > this.count) return false;
    lines.push(...grown);
    for (const index of changed) {
      const entry = view.at(index);
      const id = this.ids[index]!;
      const extra = { ...(entry.role === 'model' ? { model: boundary.model } : {}), ...extraFor(index) };
      lines.push(line(messageRecord(entry, id, timestamp, extra)));
      this.sources[index] = entry;
      if (index === lastIndex) this.remember(entry, id, extra);
    }
    return true;
  }

  private checkpoint(
    view: VirtualHistory,
    timestamp: string,
    boundary: TurnBoundary,
    extraFor: (index: number) => Partial<MessageRecord>,
  ): string {
    const messages: MessageRecord[] = [];
    for (let index = 0; index < view.length; index += 1) {
      const entry = view.at(index);
      const extra = { ...(entry.role === 'model' ? { model: boundary.model } : {}), ...extraFor(index) };
      const id = this.newId();
      messages.push(messageRecord(entry, id, timestamp, extra));
      this.ids[index] = id;
      this.sources[index] = entry;
      if (index === view.length - 1) this.remember(entry, id, extra);
    }
    if (view.length === 0) this.last = undefined;
    this.count = view.length;
    this.ids.length = view.length;
    this.sources.length = view.length;
    return line({ $set: { lastUpdated: timestamp, messages } });
  }

  private remember(entry: Content, id: string, extra: Partial<MessageRecord>): void {
    this.last = {
      id,
      role: entry.role,
      partCount: entry.parts.length,
      partsJson: JSON.stringify(entry.parts),
      extra,
    };
  }

  private write(lines: string[], timestamp: string): void {
    if (lines.length === 0) return;
    let prefix = '';
    if (!this.opened) {
      // Private to the user: a log holds the project's code and command output.
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      const metadata: SessionMetadata = {
        sessionId: this.sessionId,
        projectHash: projectHash(this.projectRoot),
        startTime: timestamp,
        lastUpdated: timestamp,
        kind: 'main',
        directories: [this.projectRoot],
        ...(this.importedFrom ? { importedFrom: this.importedFrom } : {}),
      };
      prefix = line(metadata);
      this.opened = true;
      this.size = sizeOf(this.file);
    } else if (this.size === undefined) {
      this.size = sizeOf(this.file);
      // A torn last line (the previous run died mid-write) stays a line of its own.
      if (!endsWithNewline(this.file, this.size)) prefix = '\n';
    }
    const before = this.size;
    const text = prefix + lines.join('');
    try {
      this.append(this.file, text);
      this.size = before + Buffer.byteLength(text);
    } catch (error) {
      // A full disk may have let part of the text in: cut the file back to its last complete
      // line, so the log stays readable (and resumable) up to the last turn that made it.
      truncateBack(this.file, before);
      this.size = undefined;
      throw error;
    }
  }
}

interface VirtualHistory {
  length: number;
  at(index: number): Content;
  /** Index of the entry holding the pending parts, or -1. */
  pendingIndex: number;
}

/** The history as it will be once the pending user parts join it (merging like `Chat` does). */
function virtualHistory(history: readonly Content[], pending: Part[] | undefined): VirtualHistory {
  if (!pending || pending.length === 0) {
    return { length: history.length, at: (index) => history[index]!, pendingIndex: -1 };
  }
  const lastIndex = history.length - 1;
  const lastEntry = history[lastIndex];
  if (lastEntry?.role === 'user') {
    const merged: Content = { role: 'user', parts: [...lastEntry.parts, ...pending] };
    return {
      length: history.length,
      at: (index) => (index === lastIndex ? merged : history[index]!),
      pendingIndex: lastIndex,
    };
  }
  const added: Content = { role: 'user', parts: pending };
  return {
    length: history.length + 1,
    at: (index) => (index === history.length ? added : history[index]!),
    pendingIndex: history.length,
  };
}

function modelExtra(boundary: TurnBoundary): Partial<MessageRecord> {
  return { ...(boundary.usage ? { tokens: tokenRecord(boundary.usage) } : {}), model: boundary.model };
}

function displayExtra(text: string, entry: Content): Partial<MessageRecord> {
  return text !== recordText(entry.parts) ? { displayContent: text } : {};
}

function pendingExtra(boundary: TurnBoundary, entry: Content): Partial<MessageRecord> {
  const extra: Partial<MessageRecord> =
    boundary.displayText !== undefined ? displayExtra(boundary.displayText, entry) : {};
  if (boundary.toolCalls && boundary.toolCalls.length > 0) {
    extra.toolResults = boundary.toolCalls.map(toolResultSummary);
  }
  return extra;
}

function toolResultSummary(call: CompletedToolCall): ToolResultSummary {
  const display = call.response.resultDisplay;
  return {
    id: call.request.callId,
    name: call.request.name,
    status: call.response.status,
    ...(display
      ? {
          resultDisplay:
            display.length > DISPLAY_PREVIEW_CHARS ? `${display.slice(0, DISPLAY_PREVIEW_CHARS)}…` : display,
        }
      : {}),
    durationMs: call.response.durationMs,
  };
}

function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function truncateBack(file: string, size: number): void {
  try {
    truncateSync(file, size);
  } catch {
    // Nothing written, or the file is gone: nothing torn to cut off.
  }
}

function endsWithNewline(file: string, size: number): boolean {
  if (size === 0) return true;
  const fd = openSync(file, 'r');
  try {
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, size - 1);
    return byte[0] === 10;
  } finally {
    closeSync(fd);
  }
}
