/**
 * The scripted HTTP server behind the OpenAI and Anthropic mocks (openai-mock.ts,
 * anthropic-mock.ts): the same script, fault and recording model as the Gemini mock
 * (gemini-mock.ts), with the protocol details — routes, auth, error bodies, SSE framing — supplied
 * by each mock. Each request takes the next script step whatever it asks for; a step is a
 * response or a fault (drop, HTTP status, malformed event, empty body, slow stream).
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
  /** Cut the whole event stream into pieces of this many bytes, written `fragmentDelayMs` apart
   * (default 2); `delayMs` is then unused. */
  fragmentBytes?: number;
  fragmentDelayMs?: number;
}

/** An HTTP error with the protocol's JSON error body. */
export interface MockStatusFault {
  fault: 'status';
  status: number;
  message?: string;
  /** The error `type` in the body (`rate_limit_error`, …); derived from the status when absent. */
  errorType?: string;
  /** OpenAI's error `code`. */
  code?: string;
  /** Sets `Retry-After` (seconds or an HTTP date). */
  retryAfter?: number | string;
  headers?: Record<string, string>;
  /** Replaces the whole body (e.g. an HTML proxy page). */
  rawBody?: string;
}

type WithChunks = { chunks?: WireObject[] } & MockPacing;

/**
 * `chunks` answers a streaming request (`"stream": true`), `response` a unary one. Faults fit
 * either: `drop` sends the chunks (half a body when unary) and destroys the socket; `malformed`
 * sends the chunks then one non-JSON event; `empty` answers 200 with an empty body; `slow` waits
 * `delayMs` between chunks (before a unary `response`).
 */
export type MockStep =
  | ({ chunks: WireObject[] } & MockPacing)
  | { response: WireObject; initialDelayMs?: number }
  | MockStatusFault
  | ({ fault: 'drop' } & WithChunks)
  | ({ fault: 'malformed'; raw?: string } & WithChunks)
  | { fault: 'empty' }
  | ({ fault: 'slow'; response?: WireObject; delayMs: number } & WithChunks);

export type MockScriptEntry = MockStep | ((request: MockRequest) => MockStep);

export type MockOutcome = 'pending' | 'completed' | 'dropped' | 'client-closed' | 'script-error';

export interface MockRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (the raw text when it is not JSON). */
  body: unknown;
  /** Whether the body asked for a stream. */
  stream: boolean;
  /** `model` of the body. */
  model?: string;
  receivedAt: number;
  receivedAtEpochMs: number;
  step?: number;
  /** `performance.now()` after each stream chunk was handed to the socket. */
  chunkSentAt: number[];
  outcome: MockOutcome;
  error?: string;
  /** Resolves when the exchange is over (non-enumerable). */
  readonly settled: Promise<MockOutcome>;
}

export interface ScriptedMock {
  /** The base URL a client is given. */
  readonly url: string;
  readonly requests: MockRequest[];
  setScript(script: MockScriptEntry[]): void;
  push(...steps: MockScriptEntry[]): void;
  readonly remaining: number;
  close(): Promise<void>;
}

/** What differs between the protocols. */
export interface MockProtocol {
  name: string;
  /** Path prefix added to the server address to form `url` (e.g. `/v1` for OpenAI). */
  urlSuffix: string;
  /** Whether `POST path` is the model endpoint. */
  isEndpoint(path: string): boolean;
  /** An error reply for a missing or wrong key (or other header problems), else undefined. */
  checkHeaders(headers: IncomingHttpHeaders): { status: number; body: string } | undefined;
  errorBody(fault: MockStatusFault, message: string): string;
  defaultMessage(status: number): string;
  /** One SSE event for a chunk. */
  frame(chunk: WireObject): string;
  /** Sent after the last chunk of a complete stream (`data: [DONE]`), if any. */
  terminator?: string;
  malformedEvent: string;
}

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

export async function startScriptedMock(
  protocol: MockProtocol,
  options: { script?: MockScriptEntry[] },
): Promise<ScriptedMock> {
  let script: MockScriptEntry[] = [...(options.script ?? [])];
  let used = 0;
  const requests: MockRequest[] = [];
  const sockets = new Set<Socket>();

  async function writeEvents(res: ServerResponse, rec: MockRequest, events: string[], pacing: MockPacing) {
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

  function drop(res: ServerResponse, record: MockRequest): void {
    record.outcome = 'dropped';
    const socket = res.socket;
    socket?.write('', () => socket.destroy());
  }

  function reply(res: ServerResponse, record: MockRequest, status: number, body: string, headers = {}) {
    if (record.outcome === 'pending') record.outcome = 'completed';
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  }

  function fail(res: ServerResponse, record: MockRequest, message: string, status = 500): undefined {
    record.outcome = 'script-error';
    record.error = message;
    reply(res, record, status, protocol.errorBody({ fault: 'status', status }, message));
    return undefined;
  }

  function nextStep(res: ServerResponse, record: MockRequest): MockStep | undefined {
    const label = `${record.method} ${record.path}${record.stream ? ' (stream)' : ''}`;
    const entry = script[used];
    if (!entry)
      return fail(
        res,
        record,
        `${protocol.name}: script exhausted after ${used} step(s); no response for ${label}`,
      );
    const step = typeof entry === 'function' ? entry(record) : entry;
    const kind = 'fault' in step ? 'fault' : 'chunks' in step ? 'stream' : 'unary';
    if (kind !== 'fault' && (kind === 'stream') !== record.stream) {
      return fail(res, record, `${protocol.name}: step ${used} is a ${kind} step, but got ${label}`);
    }
    record.step = used++;
    return step;
  }

  async function answer(res: ServerResponse, record: MockRequest): Promise<void> {
    if (record.method !== 'POST' || !protocol.isEndpoint(record.path.split('?')[0] ?? '')) {
      return fail(res, record, `${protocol.name}: no such endpoint: ${record.method} ${record.path}`, 404);
    }
    const denied = protocol.checkHeaders(record.headers);
    if (denied) return reply(res, record, denied.status, denied.body);
    const step = nextStep(res, record);
    if (!step) return;
    await sleep(('initialDelayMs' in step && step.initialDelayMs) || 0);
    if (res.destroyed) return;
    const fault = 'fault' in step ? step.fault : undefined;

    if (fault === 'status') {
      const s = step as MockStatusFault;
      const message = s.message ?? protocol.defaultMessage(s.status);
      const headers = {
        ...(s.retryAfter === undefined ? {} : { 'retry-after': String(s.retryAfter) }),
        ...s.headers,
      };
      return reply(res, record, s.status, s.rawBody ?? protocol.errorBody(s, message), headers);
    }
    const raw = 'raw' in step ? step.raw : undefined;
    if (!record.stream) {
      if (fault === 'slow') await sleep((step as MockPacing).delayMs ?? 0);
      if (res.destroyed) return;
      if (fault === 'drop') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        res.write('{"id": "cut", "choices": [');
        return drop(res, record);
      }
      const payload = 'response' in step ? step.response : {};
      const body =
        fault === 'malformed'
          ? (raw ?? '{"id": "cut", "content": [')
          : fault === 'empty'
            ? ''
            : JSON.stringify(payload);
      return reply(res, record, 200, body);
    }

    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const chunks = fault === 'empty' ? [] : ('chunks' in step && step.chunks) || [];
    const events = chunks.map((chunk) => protocol.frame(chunk));
    if (fault === 'malformed') events.push(raw !== undefined ? `data: ${raw}\n\n` : protocol.malformedEvent);
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
      stream: false,
      receivedAt: 0,
      receivedAtEpochMs: 0,
      chunkSentAt: [],
      outcome: 'pending',
    } as unknown as MockRequest;
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
        const b = (body && typeof body === 'object' ? body : {}) as WireObject;
        record.stream = b.stream === true;
        if (typeof b.model === 'string') record.model = b.model;
        record.receivedAt = performance.now();
        record.receivedAtEpochMs = Date.now();
        requests.push(record);
        return answer(res, record);
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
