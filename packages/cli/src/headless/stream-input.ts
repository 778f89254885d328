/**
 * `--input-format stream-json`: user messages arrive as JSON lines on stdin, in Claude Code's
 * shape (`{"type":"user","message":{"role":"user","content":…}}`, the content a string or
 * text/image blocks). One process answers them in turn in one conversation; each answer ends
 * with its own result (`result` event with `-o stream-json`). EOF ends the session cleanly. A
 * line that is not such a message is reported (an `error` event) and skipped: nothing is lost.
 *
 * Lines are read while a turn runs. A text message arriving then *steers* the turn, as Enter does
 * in the UI: it goes in at the next step boundary (after the running tools' results); if the
 * turn ends first, it is the next prompt. A message with `"queue": true` at the top level (and
 * any `/command` or message with images) waits for the turn to end instead, in order.
 */
import { createInterface } from 'node:readline';
import type { Part } from '@kodo/core/engine';

export type UserLine =
  | {
      ok: true;
      parts: Part[];
      text: string /** `"queue": true`: after the turn, never steering. */;
      queue: boolean;
    }
  | { ok: false; message: string };

const MAX_SHOWN = 80;

export function parseUserLine(line: string): UserLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return invalid(line, `not JSON (${(error as Error).message})`);
  }
  if (!isObject(value) || value.type !== 'user')
    return invalid(line, 'expected {"type":"user","message":{…}}');
  const message = value.message;
  if (!isObject(message) || (message.role !== undefined && message.role !== 'user')) {
    return invalid(line, 'expected "message" with role "user"');
  }
  if (value.queue !== undefined && typeof value.queue !== 'boolean')
    return invalid(line, '"queue" must be true or false');
  const queue = value.queue === true;
  const content = message.content;
  if (typeof content === 'string') {
    return content.trim() === ''
      ? invalid(line, 'the message is empty')
      : { ok: true, parts: [{ text: content }], text: content, queue };
  }
  if (!Array.isArray(content)) return invalid(line, '"content" must be a string or an array of blocks');
  const parts: Part[] = [];
  for (const block of content) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
      parts.push({ text: block.text });
    } else if (
      isObject(block) &&
      block.type === 'image' &&
      isObject(block.source) &&
      block.source.type === 'base64'
    ) {
      const { media_type: mimeType, data } = block.source;
      if (typeof mimeType !== 'string' || typeof data !== 'string')
        return invalid(line, 'an image block needs media_type and data');
      parts.push({ inlineData: { mimeType, data } });
    } else {
      const type = isObject(block) && typeof block.type === 'string' ? block.type : typeof block;
      return invalid(line, `unsupported content block "${type}" (text and base64 images are)`);
    }
  }
  const text = parts.map((part) => part.text ?? '').join('\n');
  if (parts.length === 0) return invalid(line, 'the message is empty');
  return { ok: true, parts, text, queue };
}

function invalid(line: string, why: string): UserLine {
  const shown = line.length > MAX_SHOWN ? `${line.slice(0, MAX_SHOWN)}…` : line;
  return { ok: false, message: `Invalid input line (${why}): ${shown}` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The lines of a stream, as they arrive (never the whole input at once). */
export function inputLines(input: NodeJS.ReadableStream): AsyncIterable<string> {
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}

/** What a conversation on stdin needs from the headless run. */
export interface ConversationIo {
  lines: AsyncIterable<string>;
  /** Runs one prompt to its result; its exit code. */
  run(text: string, parts: Part[]): Promise<number>;
  /** Hands a line to the running turn (Session.steer). */
  steer(text: string): void;
  /** The steered lines the turn ended without taking (Session.takeSteering). */
  takeSteering(): string[];
  /** A line that is not a user message. */
  invalid(message: string): void;
  /** Stop starting prompts (the run was interrupted). */
  stopped(): boolean;
}

type Pending = { text: string; parts: Part[] };

/**
 * Answers the messages of `io.lines` in one conversation, steering the running turn with the
 * lines that arrive meanwhile (see the top of this file). Resolves with the last prompt's exit
 * code once the input has ended and every message was answered.
 */
export async function runConversation(io: ConversationIo): Promise<number> {
  const queue: Pending[] = [];
  let running: Promise<void> | undefined;
  let code = 0;
  // A prompt that threw (a fatal error): nothing more starts, and the caller gets the error.
  let failure: { error: unknown } | undefined;
  const start = (): void => {
    if (running || failure || io.stopped()) return;
    const next = queue.shift();
    if (!next) return;
    running = io.run(next.text, next.parts).then(
      (exit) => {
        code = exit;
        running = undefined;
        // Steered lines the turn ended before taking are the next prompt, ahead of the queue.
        const left = io.takeSteering();
        if (left.length > 0) {
          const text = left.join('\n');
          queue.unshift({ text, parts: [{ text }] });
        }
        start();
      },
      (error: unknown) => {
        failure = { error };
        running = undefined;
        stopReading();
      },
    );
  };
  // A failed prompt ends the conversation at once, even while stdin stays open.
  let stopReading: () => void = () => {};
  const readingStopped = new Promise<'stopped'>((resolve) => {
    stopReading = () => resolve('stopped');
  });
  const lines = io.lines[Symbol.asyncIterator]();
  for (;;) {
    const next = await Promise.race([lines.next(), readingStopped]);
    if (next === 'stopped') {
      void lines.return?.();
      break;
    }
    if (next.done) break;
    const line = next.value;
    if (line.trim() === '') continue;
    const parsed = parseUserLine(line);
    if (!parsed.ok) {
      io.invalid(parsed.message);
      continue;
    }
    const textOnly = parsed.parts.every((part) => part.text !== undefined);
    if (running && !parsed.queue && textOnly && !parsed.text.trimStart().startsWith('/')) {
      io.steer(parsed.text);
      continue;
    }
    queue.push({ text: parsed.text, parts: parsed.parts });
    start();
    if (io.stopped() || failure) break;
  }
  // The input ended: answer what is still waiting, one after another.
  while (running) await running;
  if (failure) throw failure.error;
  return code;
}
