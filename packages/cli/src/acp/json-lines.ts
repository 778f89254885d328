/**
 * The ACP connection's wire on stdio: newline-delimited JSON-RPC, kodo's own rather than the
 * SDK's `ndJsonStream`, because one bad message must not cost the connection. The SDK's stream
 * errors on a line over its limit (a 50 MB `fs/read_text_file` answer): the connection closed,
 * kodo exited 0 with nothing said, and the editor's next prompt was lost. Here:
 *
 * - a line over `maxMessageBytes` is dropped as it streams in (never held whole), a line that is
 *   not JSON is dropped, and each is answered where it belongs: an answer to one of kodo's
 *   requests (found by its `id`) fails that request, which the tool that asked reports to the
 *   model; a request from the client gets a JSON-RPC error; when the `id` cannot be read, every
 *   request kodo is waiting on fails (none is left hanging);
 * - each is logged on stderr with its reason, and the session goes on;
 * - the connection remembers whether it ended because the client closed its input, or broke
 *   (a read or write error), so the process never exits 0 after a break.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isRecord } from '@kodo/core/engine';

type Message = Record<string, unknown>;

/** The SDK's limit, kept: bigger lines are refused one by one instead of ending the connection. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** How much of a dropped line is kept to find its `id` (at its start, or its end). */
const EDGE_BYTES = 4096;
const NEWLINE = 0x0a;

export interface AcpWire {
  stream: acp.Stream;
  /** Why the connection broke, if it did (a read or write error); undefined after a clean end. */
  failure(): string | undefined;
  /** Whether the client ended its input (the clean way to end the connection). */
  inputEnded(): boolean;
  /** Stops reading (a broken connection leaves stdin open, which would keep the process alive). */
  close(): void;
}

export function acpWire(
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
  options: { log: (message: string) => void; maxMessageBytes?: number },
): AcpWire {
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  /** Requests kodo sent and waits on, by id: their method, for the log. */
  const pending = new Map<string | number, string>();
  let broken: string | undefined;
  let ended = false;
  /** Set while messages may still be handed to the connection. */
  let controller: ReadableStreamDefaultController<Message> | undefined;
  const deliver = (message: unknown) => controller?.enqueue(message as Message);
  const finish = (how: (control: ReadableStreamDefaultController<Message>) => void) => {
    const open = controller;
    controller = undefined;
    if (open) how(open);
  };

  const write = (message: unknown): Promise<void> =>
    new Promise((resolve, reject) => {
      io.output.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  io.output.on('error', (error: Error) => {
    broken ??= `cannot write to the editor: ${error.message}`;
    // Nothing can reach the editor any more: end the connection (as broken, see failure()).
    finish((control) => control.error(error));
  });

  const failPending = (id: string | number, why: string) => {
    const method = pending.get(id);
    pending.delete(id);
    options.log(
      `[WARNING] ACP: the editor's answer to ${method} could not be used (${why}); that request failed, the session goes on.`,
    );
    deliver({ jsonrpc: '2.0', id, error: { code: -32603, message: `The editor's answer ${why}.` } });
  };

  /** A line kodo cannot take: answered where it belongs, never ending the connection. */
  const refuse = (edges: { head: string; tail: string }, why: string) => {
    const { id, isRequest } = identify(edges);
    if (!isRequest && id !== undefined && pending.has(id)) return failPending(id, why);
    if (isRequest && id !== undefined) {
      options.log(`[WARNING] ACP: a request from the editor ${why}; it was answered with an error.`);
      void write({ jsonrpc: '2.0', id, error: { code: -32600, message: `The request ${why}.` } }).catch(
        () => {},
      );
      return;
    }
    void write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `A message ${why}.` } }).catch(
      () => {},
    );
    if (isRequest || pending.size === 0) {
      options.log(`[WARNING] ACP: a message from the editor ${why}; it was dropped.`);
      return;
    }
    // An answer kodo cannot match to its request: fail every request waiting, none hangs.
    for (const waiting of [...pending.keys()]) failPending(waiting, why);
  };

  const receive = (text: string) => {
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      const edges = { head: text.slice(0, EDGE_BYTES), tail: text.slice(-EDGE_BYTES) };
      return refuse(edges, `was not valid JSON (${(error as Error).message})`);
    }
    if (isRecord(message) && !('method' in message) && 'id' in message) {
      pending.delete(message.id as string | number);
    }
    // Anything else that is not a message (a batch, a number) the SDK answers itself.
    deliver(message);
  };

  const lines = new LineSplitter(max, {
    line: (bytes) => receive(bytes.toString('utf8')),
    oversized: (edges, bytes) =>
      refuse(
        edges,
        `was ${Math.ceil(bytes / (1024 * 1024))} MiB, over the ${Math.floor(max / (1024 * 1024))} MiB a message may be`,
      ),
  });

  const onData = (chunk: Buffer | string) => {
    if (controller) lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };
  const onEnd = () => {
    if (controller) lines.end();
    ended = true;
    finish((control) => control.close());
  };
  const onError = (error: Error) => {
    broken ??= `cannot read from the editor: ${error.message}`;
    finish((control) => control.error(error));
  };
  const readable = new ReadableStream<Message>({
    start(control) {
      controller = control;
      io.input.on('data', onData);
      io.input.on('end', onEnd);
      io.input.on('error', onError);
    },
    cancel() {
      controller = undefined;
    },
  });

  const writable = new WritableStream<Message>({
    async write(message) {
      const { method, id } = message as { method?: unknown; id?: unknown };
      if (typeof method === 'string' && (typeof id === 'number' || typeof id === 'string')) {
        pending.set(id, method);
      }
      await write(message);
    },
  });

  // What arrives is whatever the client sent: the SDK checks each message's shape itself.
  const stream = { readable, writable } as unknown as acp.Stream;
  return {
    stream,
    failure: () => broken,
    inputEnded: () => ended,
    close() {
      finish((control) => control.close());
      io.input.off('data', onData);
      io.input.off('end', onEnd);
      io.input.off('error', onError);
      (io.input as { destroy?: () => void }).destroy?.();
    },
  };
}

/**
 * Splits bytes into lines; a line over `max` bytes is not collected: only its first and last
 * EDGE_BYTES are kept (to find its id), and its length is counted.
 */
class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(
    private readonly max: number,
    private readonly emit: {
      line(bytes: Buffer): void;
      oversized(edges: { head: string; tail: string }, bytes: number): void;
    },
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.add(chunk.subarray(start, end));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  end(): void {
    if (this.size > 0 || this.skipping) this.finishLine();
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      this.skipping.tail = Buffer.concat([this.skipping.tail, piece]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.size + piece.length <= this.max) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const held = Buffer.concat([...this.parts, piece]);
    this.skipping = {
      head: held.subarray(0, EDGE_BYTES),
      tail: held.subarray(-EDGE_BYTES),
      bytes: held.length,
    };
    this.parts = [];
    this.size = 0;
  }

  private finishLine(): void {
    const skipped = this.skipping;
    if (skipped) {
      this.skipping = undefined;
      this.emit.oversized(
        { head: skipped.head.toString('utf8'), tail: skipped.tail.toString('utf8') },
        skipped.bytes,
      );
      return;
    }
    const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    this.emit.line(line);
  }
}

/**
 * The `id` of a message kodo could not read whole, and whether it is a request (it has a
 * `method`): from the top-level keys at its start (`{"jsonrpc":"2.0","id":3,"result":…`), or an
 * `id` that closes it (`…},"id":3}`).
 */
export function identify(edges: { head: string; tail: string }): {
  id?: string | number;
  isRequest: boolean;
} {
  const keys = topLevelKeys(edges.head);
  const raw = keys.get('id') ?? /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(edges.tail)?.[1];
  let id: string | number | undefined;
  if (raw !== undefined) {
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === 'number' || typeof value === 'string') id = value;
    } catch {
      id = undefined;
    }
  }
  return { ...(id !== undefined ? { id } : {}), isRequest: keys.has('method') };
}

/** Top-level keys of a (possibly cut) JSON object, with the raw text of scalar values. */
function topLevelKeys(text: string): Map<string, string | undefined> {
  const keys = new Map<string, string | undefined>();
  let depth = 0;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      const end = stringEnd(text, index);
      if (end === -1) break;
      if (depth === 1) {
        const after = skipSpace(text, end + 1);
        if (text[after] === ':') {
          const key = JSON.parse(text.slice(index, end + 1)) as string;
          const valueStart = skipSpace(text, after + 1);
          keys.set(key, scalarAt(text, valueStart));
          index = valueStart;
          continue;
        }
      }
      index = end + 1;
      continue;
    }
    if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') depth -= 1;
    index += 1;
  }
  return keys;
}

function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === '"') return index;
  }
  return -1;
}

function skipSpace(text: string, index: number): number {
  let at = index;
  while (at < text.length && /\s/.test(text[at]!)) at += 1;
  return at;
}

/** A number or string starting at `index`, as written; undefined for objects, arrays or a cut value. */
function scalarAt(text: string, index: number): string | undefined {
  if (text[index] === '"') {
    const end = stringEnd(text, index);
    return end === -1 ? undefined : text.slice(index, end + 1);
  }
  const match = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[\s,}])/.exec(text.slice(index, index + 64));
  return match?.[0];
}
