/**
 * The scripted HTTP server behind every model mock (gemini-mock.ts, and openai-mock.ts and
 * anthropic-mock.ts through sse-mock-server.ts). Each request takes the next script step
 * whatever it asks for (like strict `--fake-responses`); a step is a response or a fault (drop,
 * HTTP status, malformed event, empty body, slow or fragmented stream), so retry and error
 * paths can be driven over real sockets. Every request is logged with its parsed body and
 * timings. The protocol — routes, auth, error bodies, SSE framing, content types — is the
 * mock's to supply.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A JSON object as sent on the wire; kept loose on purpose. */
export type WireObject = Record<string, unknown>;

export interface MockPacing {
  /** Wait before sending the status line (slow time-to-first-byte). */
  initialDelayMs?: number;
  /** Wait between two events. */
  delayMs?: number;
  /** Only wait (`delayMs`) after the event with this index; the others follow at once. Lets a
   * test hold a stream right after its first text although the protocol opens with other events. */
  holdAfter?: number;
  /** Cut the whole event stream into pieces of this many bytes (splitting events, line ends and
   * multi-byte characters) written `fragmentDelayMs` apart (default 2); `delayMs` is then unused. */
  fragmentBytes?: number;
  fragmentDelayMs?: number;
}

/** An HTTP error; each protocol adds the fields of its JSON error body. */
export interface StatusFaultBase {
  fault: 'status';
  status: number;
  message?: string;
  /** Sets `Retry-After` (seconds or an HTTP date). */
  retryAfter?: number | string;
  headers?: Record<string, string>;
  /** Replaces the whole body (e.g. an HTML proxy page). */
  rawBody?: string;
}

type WithChunks = { chunks?: WireObject[] } & MockPacing;

/**
 * `chunks` answers a streaming request, `response` a unary one; `Extra` adds a protocol's own
 * steps (Gemini's `countTokens`). Faults fit any request: `drop` sends the chunks (half a body
 * when unary) and destroys the socket; `malformed` sends the chunks then one non-JSON event (a
 * non-JSON body when unary); `empty` answers 200 with an empty body; `slow` waits `delayMs`
 * between chunks (before a unary `response`); `hang` accepts the request and never finishes it:
 * without `chunks` nothing at all is sent, with `chunks` (even none) a stream sends its status
 * line and those chunks, then stays silent, open until the client gives up or the mock closes.
 */
export type ScriptStep<Fault extends StatusFaultBase, Extra = never> =
  | ({ chunks: WireObject[] } & MockPacing)
  | { response: WireObject; initialDelayMs?: number }
  | Fault
  | ({ fault: 'drop' } & WithChunks)
  | ({ fault: 'malformed'; raw?: string } & WithChunks)
  | { fault: 'empty' }
  | ({ fault: 'slow'; response?: WireObject; delayMs: number } & WithChunks)
  | ({ fault: 'hang' } & WithChunks)
  | Extra;

/** A step, or a function choosing one from the request (for replies that depend on it). */
export type ScriptEntry<Step, Req> = Step | ((request: Req) => Step);

export type MockOutcome = 'pending' | 'completed' | 'dropped' | 'client-closed' | 'script-error';

/** What is logged of every request; protocols add what they read from the path or body. */
export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (the raw text when it is not JSON). */
  body: unknown;
  /** `performance.now()` when the request was complete; comparable with in-process timestamps. */
  receivedAt: number;
  /** `Date.now()` at the same moment. */
  receivedAtEpochMs: number;
  /** Index of the script step that answered (undefined when none did). */
  step?: number;
  /** `performance.now()` after each stream chunk was handed to the socket. */
  chunkSentAt: number[];
  outcome: MockOutcome;
  /** Why the mock could not answer from the script. */
  error?: string;
  /** Resolves when the exchange is over (non-enumerable, so it does not disturb `toEqual`). */
  readonly settled: Promise<MockOutcome>;
}

export interface ScriptedServer<Step, Req> {
  /** The base URL a client is given: the server's address (no trailing slash) and the
   * protocol's `urlSuffix`. */
  readonly url: string;
  /** Requests to the model endpoint, in order. */
  readonly requests: Req[];
  /**
   * Every other request (a client asking a local server about itself: `GET /props`,
   * `POST /api/show`), answered by the protocol's `answerOther` or with a 404.
   */
  readonly otherRequests: Req[];
  /** Replaces the rest of the script. */
  setScript(script: ScriptEntry<Step, Req>[]): void;
  /** Appends steps to the script. */
  push(...steps: ScriptEntry<Step, Req>[]): void;
  /** Steps not used yet. */
  readonly remaining: number;
  /** Stops listening and destroys open sockets, mid-stream ones included. */
  close(): Promise<void>;
}

/** The kind of step an endpoint takes (`count`: Gemini's countTokens). */
export type StepKind = 'stream' | 'unary' | 'count';

export interface MockAnswer {
  status: number;
  body: string;
}

/** What differs between the protocols. */
export interface ServerProtocol<Req extends RecordedRequest, Fault extends StatusFaultBase> {
  /** Names the mock in its error messages (`gemini-mock`). */
  name: string;
  /** Added to the server address to form `url` (e.g. `/v1` for OpenAI). */
  urlSuffix: string;
  /** Notes what the parsed body says in the record, before the request is logged. */
  noteBody?(record: Req): void;
  /** For a POST: the kind of step its endpoint takes, after noting what the path says in the
   * record; undefined when there is no such endpoint. */
  route(record: Req, pathname: string): StepKind | undefined;
  /** How script errors name the request; default `METHOD path`. */
  describe?(record: Req): string;
  /** The answer to a missing or wrong key (or other header problems), else undefined. */
  refuse(record: Req): MockAnswer | undefined;
  /** An answer from outside the script (which keeps its steps), else undefined. */
  answerDirectly?(record: Req): MockAnswer | undefined;
  /** An answer to a request for another endpoint than the model's (any method), else undefined. */
  answerOther?(record: Req): MockAnswer | undefined;
  errorBody(fault: Fault, message: string): string;
  /** Status fault messages by status; the others read `Mock error <status>`. */
  defaultMessages: Readonly<Record<number, string>>;
  /** `content-type` of JSON answers. */
  jsonType: string;
  /** Headers of a stream answer. */
  streamHeaders: Readonly<Record<string, string>>;
  /** One SSE event for a chunk. */
  frame(chunk: WireObject): string;
  /** Sent after the last chunk of a complete stream (`data: [DONE]`), if any. */
  terminator?: string;
  /** The non-JSON event a `malformed` stream ends with; `raw` is the step's, when it gives one. */
  malformedEvent(raw: string | undefined): string;
  /** The body of a unary `malformed` step without `raw`. */
  malformedBody: string;
  /** What a unary `drop` sends before cutting the connection. */
  cutBody: string;
}

/** The shape of any step, for reading it whatever the protocol's step type. */
type AnyStep = ScriptStep<StatusFaultBase, { countTokens: WireObject }>;

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const buffers: Buffer[] = [];
  for await (const buffer of req) buffers.push(buffer as Buffer);
  const text = Buffer.concat(buffers).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Writes the events, `delayMs` apart, or cut into `fragmentBytes` pieces; stamps each chunk when
 * its last byte leaves. False when the client went away meanwhile.
 */
async function writeEvents(res: ServerResponse, rec: RecordedRequest, events: string[], pacing: MockPacing) {
  const all = Buffer.from(events.join(''), 'utf8');
  const ends: number[] = [];
  for (const event of events) ends.push((ends.at(-1) ?? 0) + Buffer.byteLength(event));
  const size = pacing.fragmentBytes ?? 0;
  const cuts =
    size > 0
      ? Array.from({ length: Math.ceil(all.length / size) }, (_, i) => Math.min(all.length, (i + 1) * size))
      : ends;
  let start = 0;
  for (const [index, cut] of cuts.entries()) {
    const held = pacing.holdAfter === undefined || pacing.holdAfter === index - 1;
    if (index > 0) await sleep(size > 0 ? (pacing.fragmentDelayMs ?? 2) : held ? (pacing.delayMs ?? 0) : 0);
    if (res.destroyed) return false;
    res.write(all.subarray(start, cut));
    start = cut;
    while (rec.chunkSentAt.length < ends.length && (ends[rec.chunkSentAt.length] ?? 0) <= cut) {
      rec.chunkSentAt.push(performance.now());
    }
  }
  return !res.destroyed;
}

/** Cuts the connection without finishing the HTTP message, once the written bytes have left. */
function drop(res: ServerResponse, record: RecordedRequest): void {
  record.outcome = 'dropped';
  const socket = res.socket;
  socket?.write('', () => socket.destroy());
}

export async function startScriptedServer<
  Req extends RecordedRequest,
  Fault extends StatusFaultBase,
  Step extends object,
>(
  protocol: ServerProtocol<Req, Fault>,
  initialScript: ScriptEntry<Step, Req>[] = [],
): Promise<ScriptedServer<Step, Req>> {
  let script = [...initialScript];
  let used = 0;
  const requests: Req[] = [];
  const otherRequests: Req[] = [];
  const sockets = new Set<Socket>();

  function reply(res: ServerResponse, record: Req, status: number, body: string, headers = {}) {
    if (record.outcome === 'pending') record.outcome = 'completed';
    res.writeHead(status, { 'content-type': protocol.jsonType, ...headers });
    res.end(body);
  }

  function fail(res: ServerResponse, record: Req, message: string, status = 500): undefined {
    record.outcome = 'script-error';
    record.error = message;
    reply(res, record, status, protocol.errorBody({ fault: 'status', status } as Fault, message));
    return undefined;
  }

  /** The step for this request, or undefined after answering with a script error. */
  function nextStep(res: ServerResponse, record: Req, expected: StepKind): AnyStep | undefined {
    const label = protocol.describe?.(record) ?? `${record.method} ${record.path}`;
    const entry = script[used];
    if (!entry) {
      return fail(
        res,
        record,
        `${protocol.name}: script exhausted after ${used} step(s); no response for ${label}`,
      );
    }
    const step = (typeof entry === 'function' ? (entry as (request: Req) => Step)(record) : entry) as AnyStep;
    const kind =
      'fault' in step ? 'fault' : 'chunks' in step ? 'stream' : 'countTokens' in step ? 'count' : 'unary';
    if (kind !== 'fault' && kind !== expected) {
      return fail(res, record, `${protocol.name}: step ${used} is a ${kind} step, but got ${label}`);
    }
    record.step = used++;
    return step;
  }

  async function answer(res: ServerResponse, record: Req, expected: StepKind | undefined): Promise<void> {
    if (!expected) {
      const other = protocol.answerOther?.(record);
      if (other) {
        return reply(res, record, other.status, other.body);
      }
      return fail(res, record, `${protocol.name}: no such endpoint: ${record.method} ${record.path}`, 404);
    }
    const direct = protocol.refuse(record) ?? protocol.answerDirectly?.(record);
    if (direct) return reply(res, record, direct.status, direct.body);
    const step = nextStep(res, record, expected);
    if (!step) return;
    await sleep(('initialDelayMs' in step && step.initialDelayMs) || 0);
    if (res.destroyed) return;
    const fault = 'fault' in step ? step.fault : undefined;

    if (fault === 'status') {
      const s = step as Fault;
      const message = s.message ?? protocol.defaultMessages[s.status] ?? `Mock error ${s.status}`;
      const headers = {
        ...(s.retryAfter === undefined ? {} : { 'retry-after': String(s.retryAfter) }),
        ...s.headers,
      };
      return reply(res, record, s.status, s.rawBody ?? protocol.errorBody(s, message), headers);
    }
    if (fault === 'hang') {
      const hung = 'chunks' in step ? step.chunks : undefined;
      if (hung && expected === 'stream') {
        res.writeHead(200, protocol.streamHeaders);
        res.flushHeaders();
        await writeEvents(
          res,
          record,
          hung.map((chunk) => protocol.frame(chunk)),
          step as MockPacing,
        );
      }
      return;
    }
    const raw = 'raw' in step ? step.raw : undefined;
    if (expected !== 'stream') {
      if (fault === 'slow') await sleep((step as MockPacing).delayMs ?? 0);
      if (res.destroyed) return;
      if (fault === 'drop') {
        res.writeHead(200, { 'content-type': protocol.jsonType, 'content-length': '4096' });
        res.write(protocol.cutBody);
        return drop(res, record);
      }
      const payload = 'response' in step ? step.response : 'countTokens' in step ? step.countTokens : {};
      const body =
        fault === 'malformed'
          ? (raw ?? protocol.malformedBody)
          : fault === 'empty'
            ? ''
            : JSON.stringify(payload);
      return reply(res, record, 200, body);
    }

    res.writeHead(200, protocol.streamHeaders);
    res.flushHeaders();
    const chunks = fault === 'empty' ? [] : ('chunks' in step && step.chunks) || [];
    const events = chunks.map((chunk) => protocol.frame(chunk));
    if (fault === 'malformed') events.push(protocol.malformedEvent(raw));
    if (!(await writeEvents(res, record, events, step as MockPacing))) return;
    if (fault === 'drop') return drop(res, record);
    if (protocol.terminator && fault !== 'malformed' && fault !== 'empty') res.write(protocol.terminator);
    record.outcome = 'completed';
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mock');
    const record = {
      method: req.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: undefined,
      receivedAt: 0,
      receivedAtEpochMs: 0,
      chunkSentAt: [],
      outcome: 'pending',
    } as unknown as Req;
    let settle: (outcome: MockOutcome) => void = () => {};
    const settled = new Promise<MockOutcome>((resolve) => {
      settle = resolve;
    });
    res.on('close', () => {
      if (record.outcome === 'pending') record.outcome = res.writableFinished ? 'completed' : 'client-closed';
      settle(record.outcome);
    });
    Object.defineProperty(record, 'settled', { value: settled, enumerable: false });
    readBody(req)
      .then((body) => {
        record.body = body;
        protocol.noteBody?.(record);
        record.receivedAt = performance.now();
        record.receivedAtEpochMs = Date.now();
        const expected =
          record.method === 'POST' ? protocol.route(record, record.path.split('?')[0] ?? '') : undefined;
        (expected ? requests : otherRequests).push(record);
        return answer(res, record, expected);
      })
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else fail(res, record, `${protocol.name}: internal error: ${(error as Error).message}`);
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${protocol.urlSuffix}`,
    requests,
    otherRequests,
    setScript(next) {
      script = [...next];
      used = 0;
    },
    push(...steps) {
      script.push(...steps);
    },
    get remaining() {
      return script.length - used;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
