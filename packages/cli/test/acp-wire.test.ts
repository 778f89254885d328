/**
 * The ACP wire (acp/json-lines.ts) against what a broken or hostile client sends, on in-memory
 * pipes: each bad line costs at most the request it answers, never the connection. The built
 * kodo under the same attacks: e2e/acp-bad-input.e2e.test.ts.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { acpWire, identify } from '../src/acp/json-lines';

type Json = Record<string, unknown>;

function harness(maxMessageBytes = 1024) {
  const input = new PassThrough();
  const output = new PassThrough();
  const logs: string[] = [];
  const wire = acpWire({ input, output }, { log: (line) => logs.push(line), maxMessageBytes });
  const reader = wire.stream.readable.getReader();
  const writer = wire.stream.writable.getWriter();
  const written: Json[] = [];
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n')) {
      written.push(JSON.parse(text.slice(0, at)) as Json);
      text = text.slice(at + 1);
    }
  });
  return {
    wire,
    logs,
    written,
    input,
    output,
    /** kodo sends a request (so the wire waits for its answer). */
    ask: (id: number, method: string) => writer.write({ jsonrpc: '2.0', id, method, params: {} } as never),
    next: async () => (await reader.read()).value as Json | undefined,
    send: (text: string) => input.write(text),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the ACP wire', () => {
  it('fails only the request an oversized answer belongs to, and keeps reading', async () => {
    const h = harness();
    await h.ask(1, 'fs/read_text_file');
    await h.ask(2, 'session/request_permission');
    h.send(`{"jsonrpc":"2.0","id":1,"result":{"content":"${'x'.repeat(5000)}"}}\n`);
    expect(await h.next()).toMatchObject({
      id: 1,
      error: { code: -32603, message: expect.stringContaining('over the') },
    });
    h.send('{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"cancelled"}}}\n');
    expect(await h.next()).toMatchObject({ id: 2, result: { outcome: { outcome: 'cancelled' } } });
    expect(h.logs).toEqual([
      expect.stringMatching(/^\[WARNING\] ACP: the editor's answer to fs\/read_text_file/),
    ]);
  });

  it('finds the id at the end of an oversized answer too', async () => {
    const h = harness();
    await h.ask(7, 'fs/read_text_file');
    await h.ask(8, 'fs/read_text_file');
    h.send(`{"jsonrpc":"2.0","result":{"content":"${'y'.repeat(5000)}"},"id":8}\n`);
    expect(await h.next()).toMatchObject({ id: 8, error: { code: -32603 } });
  });

  it('a line that is not JSON fails the request it answers; with no readable id, every waiting request', async () => {
    const h = harness();
    await h.ask(3, 'fs/read_text_file');
    h.send('{"jsonrpc":"2.0","id":3,"result":{"content":\n');
    expect(await h.next()).toMatchObject({
      id: 3,
      error: { message: expect.stringContaining('not valid JSON') },
    });
    await h.ask(4, 'fs/read_text_file');
    await h.ask(5, 'terminal/output');
    h.send('garbage\n');
    const failed = [await h.next(), await h.next()];
    expect(failed.map((message) => message?.id).sort()).toEqual([4, 5]);
    await tick();
    expect(h.written.at(-1)).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it('answers an oversized or broken request from the client with an error for its id', async () => {
    const h = harness();
    h.send(`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{"text":"${'z'.repeat(5000)}"}}\n`);
    h.send('{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":\n');
    h.send('{"jsonrpc":"2.0","id":10,"method":"initialize","params":{}}\n');
    // The good request still reaches the connection.
    expect(await h.next()).toMatchObject({ id: 10, method: 'initialize' });
    await tick();
    expect(h.written).toEqual([
      expect.objectContaining({ id: 'p1', error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: 9, error: expect.objectContaining({ code: -32600 }) }),
    ]);
  });

  it('tells a clean end (input closed) from a break (a write error)', async () => {
    const clean = harness();
    clean.input.end();
    expect(await clean.next()).toBeUndefined();
    expect(clean.wire.inputEnded()).toBe(true);
    expect(clean.wire.failure()).toBeUndefined();

    const broken = harness();
    broken.output.emit('error', new Error('write EPIPE'));
    await expect(broken.next()).rejects.toThrow('EPIPE');
    expect(broken.wire.failure()).toBe('cannot write to the editor: write EPIPE');
    expect(broken.wire.inputEnded()).toBe(false);
  });

  it('reads ids of a cut message at the top level only', () => {
    expect(identify({ head: '{"jsonrpc":"2.0","id":12,"result":{"id":99', tail: '' })).toEqual({
      id: 12,
      isRequest: false,
    });
    expect(identify({ head: '{"result":{"id":99,"content":"', tail: '"},"id":"abc"}' })).toEqual({
      id: 'abc',
      isRequest: false,
    });
    expect(identify({ head: '{"method":"x","params":{"id":1', tail: '' })).toEqual({ isRequest: true });
  });
});
