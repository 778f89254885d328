/**
 * What the OpenAI and Anthropic mocks (openai-mock.ts, anthropic-mock.ts) share on top of the
 * scripted server (scripted-server.ts): one POST endpoint whose JSON body says whether to stream
 * (`"stream": true`) and names the model, `data:` lines ending in `\n\n`, and tool-call arguments
 * streamed as JSON fragments. Each mock supplies its route, auth, error bodies and event framing.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  type MockAnswer,
  type RecordedRequest,
  type ScriptEntry,
  type ScriptedServer,
  type ScriptStep,
  type StatusFaultBase,
  startScriptedServer,
  type WireObject,
} from './scripted-server';

/** An HTTP error with the protocol's JSON error body. */
export interface MockStatusFault extends StatusFaultBase {
  /** The error `type` in the body (`rate_limit_error`, …); derived from the status when absent. */
  errorType?: string;
  /** OpenAI's error `code`. */
  code?: string;
}

export type MockStep = ScriptStep<MockStatusFault>;

export type MockScriptEntry = ScriptEntry<MockStep, MockRequest>;

export interface MockRequest extends RecordedRequest {
  /** Whether the body asked for a stream. */
  stream: boolean;
  /** `model` of the body. */
  model?: string;
}

export type ScriptedMock = ScriptedServer<MockStep, MockRequest>;

export interface ScriptedMockOptions {
  script?: MockScriptEntry[];
  /** When set, requests must carry this key where the real API wants it. */
  apiKey?: string;
  /**
   * JSON answers for other endpoints, keyed `METHOD /path` (`GET /props`, `POST /api/show`):
   * what a local server tells about itself. Logged like every request; the script is untouched.
   */
  routes?: Record<string, WireObject | ((request: MockRequest) => WireObject)>;
}

/** What differs between the OpenAI and Anthropic protocols. */
export interface MockProtocol {
  name: string;
  /** Path prefix added to the server address to form `url` (e.g. `/v1` for OpenAI). */
  urlSuffix: string;
  /** Whether `POST path` is the model endpoint. */
  isEndpoint(path: string): boolean;
  /** An error reply for a missing or wrong key (or other header problems), else undefined. */
  checkHeaders(headers: IncomingHttpHeaders): MockAnswer | undefined;
  errorBody(fault: MockStatusFault, message: string): string;
  /** Status fault messages by status; the others read `Mock error <status>`. */
  defaultMessages: Readonly<Record<number, string>>;
  /** One SSE event for a chunk. */
  frame(chunk: WireObject): string;
  /** Sent after the last chunk of a complete stream (`data: [DONE]`), if any. */
  terminator?: string;
  malformedEvent: string;
}

export function startScriptedMock(
  protocol: MockProtocol,
  options: ScriptedMockOptions,
): Promise<ScriptedMock> {
  return startScriptedServer<MockRequest, MockStatusFault, MockStep>(
    {
      name: protocol.name,
      urlSuffix: protocol.urlSuffix,
      noteBody(record) {
        const body = (record.body && typeof record.body === 'object' ? record.body : {}) as WireObject;
        record.stream = body.stream === true;
        if (typeof body.model === 'string') record.model = body.model;
      },
      route: (record, pathname) =>
        protocol.isEndpoint(pathname) ? (record.stream ? 'stream' : 'unary') : undefined,
      describe: (record) => `${record.method} ${record.path}${record.stream ? ' (stream)' : ''}`,
      refuse: (record) => protocol.checkHeaders(record.headers),
      answerOther(record) {
        const route = options.routes?.[`${record.method} ${record.path.split('?')[0]}`];
        if (!route) return undefined;
        return { status: 200, body: JSON.stringify(typeof route === 'function' ? route(record) : route) };
      },
      errorBody: protocol.errorBody,
      defaultMessages: protocol.defaultMessages,
      jsonType: 'application/json',
      streamHeaders: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
      frame: protocol.frame,
      terminator: protocol.terminator,
      malformedEvent: (raw) => (raw !== undefined ? `data: ${raw}\n\n` : protocol.malformedEvent),
      malformedBody: '{"id": "cut", "content": [',
      cutBody: '{"id": "cut", "choices": [',
    },
    options.script,
  );
}

/** A tool call to script; `id` defaults to one numbered by position. */
export interface MockToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/** The JSON of a call's arguments cut into `size`-character fragments (default 7), as both APIs
 * stream them. */
export function argumentFragments(args: Record<string, unknown>, size = 7): string[] {
  const json = JSON.stringify(args);
  const fragments: string[] = [];
  for (let at = 0; at < json.length; at += size) fragments.push(json.slice(at, at + size));
  return fragments;
}
