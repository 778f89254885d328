/** The mock Gemini server, checked with a bare node:http client so no kodo code is involved. */
import { type IncomingHttpHeaders, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type GeminiMock,
  geminiChunk,
  geminiFunctionCallReply,
  geminiFunctionCallsReply,
  geminiTextReply,
  startGeminiMock,
} from '../src/index';

interface RawResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Network reads of the body (how the bytes arrived). */
  reads: number;
  error?: Error;
}

function post(url: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const buffers: Buffer[] = [];
        const result = (error?: Error): RawResult => ({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(buffers).toString('utf8'),
          reads: buffers.length,
          error,
        });
        res.on('data', (buffer: Buffer) => buffers.push(buffer));
        res.on('end', () => resolve(result()));
        res.on('error', (error) => resolve(result(error)));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const STREAM = '/v1beta/models/gemini-test:streamGenerateContent?alt=sse';
const UNARY = '/v1beta/models/gemini-test:generateContent';

let mock: GeminiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('startGeminiMock', () => {
  it('streams chunks as SSE events framed like the real API and records the request', async () => {
    const chunks = geminiTextReply(['Hello', ' world'], { usageMetadata: { totalTokenCount: 3 } });
    mock = await startGeminiMock({ script: [{ chunks }] });
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const res = await post(`${mock.url}${STREAM}`, body, { 'x-goog-api-key': 'k' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.text).toBe(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(''));
    const [seen] = mock.requests;
    expect(seen).toMatchObject({
      method: 'POST',
      path: STREAM,
      apiVersion: 'v1beta',
      model: 'gemini-test',
      action: 'streamGenerateContent',
      query: { alt: 'sse' },
      body,
      step: 0,
      outcome: 'completed',
    });
    expect(seen?.headers['x-goog-api-key']).toBe('k');
    expect(seen?.receivedAt).toBeGreaterThan(0);
    expect(Math.abs((seen?.receivedAtEpochMs ?? 0) - Date.now())).toBeLessThan(5_000);
    expect(seen?.chunkSentAt).toHaveLength(2);
    expect(await seen?.settled).toBe('completed');
    expect(mock.remaining).toBe(0);
  });

  it('answers generateContent and countTokens, also under /v1', async () => {
    const response = geminiChunk([{ text: 'ok' }]);
    mock = await startGeminiMock({ script: [{ response }, { countTokens: { totalTokens: 7 } }] });
    const unary = await post(`${mock.url}/v1/models/gemini-test:generateContent`);
    expect(unary.status).toBe(200);
    expect(unary.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(unary.text)).toEqual(response);
    const count = await post(`${mock.url}/v1beta/models/gemini-test:countTokens`);
    expect(JSON.parse(count.text)).toEqual({ totalTokens: 7 });
    expect(mock.requests.map((r) => [r.apiVersion, r.action])).toEqual([
      ['v1', 'generateContent'],
      ['v1beta', 'countTokens'],
    ]);
  });

  it('fails clearly when the script runs out or the step does not fit the request', async () => {
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('x') }] });
    const mismatch = await post(`${mock.url}${UNARY}`);
    expect(mismatch.status).toBe(500);
    expect(JSON.parse(mismatch.text).error.message).toContain('step 0 is a stream step, but got POST');
    expect(mock.remaining).toBe(1); // the step is still there for the request it was meant for
    await post(`${mock.url}${STREAM}`);
    const exhausted = await post(`${mock.url}${STREAM}`);
    expect(exhausted.status).toBe(500);
    const error = JSON.parse(exhausted.text).error;
    expect(error).toMatchObject({ code: 500, status: 'INTERNAL' });
    expect(error.message).toContain(`script exhausted after 1 step(s); no response for POST ${STREAM}`);
    expect(mock.requests[2]).toMatchObject({ outcome: 'script-error' });
  });

  it('injects HTTP errors with Google-style bodies and Retry-After', async () => {
    mock = await startGeminiMock({
      script: [
        { fault: 'status', status: 429, retryAfter: 12 },
        { fault: 'status', status: 500, message: 'boom' },
        { fault: 'status', status: 502, rawBody: '<html>Bad Gateway</html>' },
      ],
    });
    const quota = await post(`${mock.url}${STREAM}`);
    expect(quota.status).toBe(429);
    expect(quota.headers['retry-after']).toBe('12');
    expect(JSON.parse(quota.text)).toEqual({
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        status: 'RESOURCE_EXHAUSTED',
      },
    });
    const internal = await post(`${mock.url}${UNARY}`);
    expect(JSON.parse(internal.text).error).toEqual({ code: 500, message: 'boom', status: 'INTERNAL' });
    expect((await post(`${mock.url}${UNARY}`)).text).toBe('<html>Bad Gateway</html>');
  });

  it('drops the connection after the given chunks', async () => {
    const chunks = geminiTextReply(['a', 'b']);
    mock = await startGeminiMock({ script: [{ fault: 'drop', chunks }] });
    const res = await post(`${mock.url}${STREAM}`);
    expect(res.text).toBe(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(''));
    expect(res.error).toMatchObject({ code: 'ECONNRESET' });
    expect(await mock.requests[0]?.settled).toBe('dropped');
  });

  it('sends a malformed chunk, an empty stream, and malformed or empty unary bodies', async () => {
    mock = await startGeminiMock({
      script: [
        { fault: 'malformed', chunks: geminiTextReply('ok'), raw: '{"candidates": [' },
        { fault: 'empty' },
        { fault: 'malformed' },
        { fault: 'empty' },
      ],
    });
    const malformed = await post(`${mock.url}${STREAM}`);
    expect(malformed.text.endsWith('data: {"candidates": [\r\n\r\n')).toBe(true);
    const empty = await post(`${mock.url}${STREAM}`);
    expect(empty).toMatchObject({ status: 200, text: '' });
    expect(empty.headers['content-type']).toBe('text/event-stream');
    const broken = (await post(`${mock.url}${UNARY}`)).text;
    expect(() => JSON.parse(broken)).toThrow();
    expect(await post(`${mock.url}${UNARY}`)).toMatchObject({ status: 200, text: '' });
  });

  it('paces slow streams and splits fragmented ones at arbitrary bytes', async () => {
    const chunks = geminiTextReply(['one', 'two', 'three']);
    mock = await startGeminiMock({
      script: [
        { fault: 'slow', chunks, delayMs: 40 },
        { chunks: geminiTextReply('😀 漢字'), fragmentBytes: 5, fragmentDelayMs: 2 },
      ],
    });
    await post(`${mock.url}${STREAM}`);
    const [first, second, third] = mock.requests[0]?.chunkSentAt ?? [];
    expect((second as number) - (first as number)).toBeGreaterThanOrEqual(35);
    expect((third as number) - (second as number)).toBeGreaterThanOrEqual(35);
    const fragmented = await post(`${mock.url}${STREAM}`);
    expect(fragmented.text).toBe(`data: ${JSON.stringify(geminiTextReply('😀 漢字')[0])}\r\n\r\n`);
    expect(fragmented.reads).toBeGreaterThan(3);
  });

  it('sees a client that goes away mid-stream', async () => {
    mock = await startGeminiMock({
      script: [{ fault: 'slow', chunks: geminiTextReply(['a', 'b']), delayMs: 5_000 }],
    });
    const req = request(`${mock.url}${STREAM}`, { method: 'POST' }, (res) => {
      res.once('data', () => req.destroy());
      res.on('error', () => {});
    });
    req.on('error', () => {});
    req.end('{}');
    while (mock.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      await Promise.race([mock.requests[0]?.settled, new Promise((r) => setTimeout(r, 1_000, 'late'))]),
    ).toBe('client-closed');
  });

  it('closes promptly even with a stream in flight', async () => {
    mock = await startGeminiMock({
      script: [{ fault: 'slow', chunks: geminiTextReply(['a', 'b']), delayMs: 10_000 }],
    });
    const pending = post(`${mock.url}${STREAM}`);
    while (mock.requests[0]?.chunkSentAt.length !== 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    await mock.close();
    mock = undefined;
    expect(performance.now() - started).toBeLessThan(500);
    expect((await pending).error).toBeDefined();
  });

  it('checks the API key like the real API when asked to', async () => {
    mock = await startGeminiMock({ apiKey: 'right', script: [{ response: geminiChunk([{ text: 'ok' }]) }] });
    expect((await post(`${mock.url}${UNARY}`)).status).toBe(403);
    expect((await post(`${mock.url}${UNARY}`, {}, { 'x-goog-api-key': 'wrong' })).status).toBe(400);
    expect((await post(`${mock.url}${UNARY}?key=right`)).status).toBe(200);
  });

  it('lets a function choose the step and answers countTokens from a callback', async () => {
    mock = await startGeminiMock({
      countTokens: (req) => ({ totalTokens: JSON.stringify(req.body).length }),
      script: [(req) => ({ chunks: geminiTextReply(`model was ${req.model}`) })],
    });
    const res = await post(`${mock.url}/v1beta/models/other-model:streamGenerateContent?alt=sse`);
    expect(res.text).toContain('model was other-model');
    const count = await post(`${mock.url}/v1beta/models/m:countTokens`, { contents: [] });
    expect(JSON.parse(count.text)).toEqual({ totalTokens: '{"contents":[]}'.length });
  });

  it('answers unknown endpoints with a Google-style 404', async () => {
    mock = await startGeminiMock();
    const res = await post(`${mock.url}/v1beta/files`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).error.status).toBe('NOT_FOUND');
  });
});

describe('reply builders', () => {
  it('build text, function-call and parallel-call chunks', () => {
    expect(geminiTextReply(['a', 'b'], { usageMetadata: { totalTokenCount: 2 } })).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'a' }] }, index: 0 }] },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'b' }] }, index: 0, finishReason: 'STOP' }],
        usageMetadata: { totalTokenCount: 2 },
      },
    ]);
    expect(geminiFunctionCallReply('glob', { pattern: '*' })).toEqual([
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'glob', args: { pattern: '*' } } }] },
            index: 0,
            finishReason: 'STOP',
          },
        ],
      },
    ]);
    const parallel = geminiFunctionCallsReply([
      { name: 'a', args: {} },
      { name: 'b', args: { x: 1 }, id: 'b1' },
    ]);
    expect(parallel).toHaveLength(1);
    const candidates = parallel[0]?.candidates as { content: { parts: unknown[] } }[];
    expect(candidates[0]?.content.parts).toEqual([
      { functionCall: { name: 'a', args: {} } },
      { functionCall: { name: 'b', args: { x: 1 }, id: 'b1' } },
    ]);
  });
});
