/**
 * An ACP client that sends something kodo cannot take — a 50 MB answer to `fs/read_text_file`, an
 * answer that is not JSON, an answer of the wrong shape — costs that one request, never the
 * connection: the tool call fails with a reason the model reads, the session goes on and takes
 * the next prompt, stderr says why. A connection that breaks (kodo's stdout closed under it)
 * never exits 0. A raw client on the pipes (not the SDK's) so it can send what no SDK would.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KODO_BIN } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();

/** The model reads a.txt (through the editor), then answers; then answers the second prompt. */
const SCRIPT = [
  [{ functionCall: { name: 'read_file', args: { file_path: 'a.txt' } } }],
  [{ text: 'first done' }],
  [{ text: 'second answer' }],
]
  .map((parts) =>
    JSON.stringify({
      method: 'generateContentStream',
      response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }],
    }),
  )
  .join('\n');

// biome-ignore lint/suspicious/noExplicitAny: raw protocol messages, read field by field below.
type Json = Record<string, any>;

interface RawClient {
  child: ChildProcessWithoutNullStreams;
  /** Every message kodo sent, in order. */
  received: Json[];
  send(message: unknown): void;
  sendRaw(text: string): void;
  request(method: string, params: unknown): Promise<Json>;
  /** Resolves with kodo's next request of `method`. */
  nextRequest(method: string): Promise<Json>;
  exit: Promise<{ code: number | null; stderr: string }>;
}

function startRaw(): RawClient {
  const fixture = join(dirs.root, 'read.jsonl');
  writeFileSync(fixture, SCRIPT);
  writeFileSync(join(dirs.workspace, 'a.txt'), 'alpha\n');
  const child = spawn(process.execPath, [KODO_BIN, '--acp', '--fake-responses', fixture], {
    cwd: dirs.workspace,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dirs.home,
      KODO_HOME: dirs.home,
      KODO_TRUST_WORKSPACE: 'true',
      KODO_SANDBOX: 'false',
    },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const received: Json[] = [];
  const waiters: ((message: Json) => boolean)[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, at)) as Json;
      buffer = buffer.slice(at + 1);
      received.push(message);
      for (const waiter of [...waiters]) if (waiter(message)) waiters.splice(waiters.indexOf(waiter), 1);
    }
  });
  child.stdin.on('error', () => undefined);
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  let nextId = 100;
  const wait = (test: (message: Json) => boolean) =>
    new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; stderr: ${stderr}`)), 20_000);
      waiters.push((message) => {
        if (!test(message)) return false;
        clearTimeout(timer);
        resolve(message);
        return true;
      });
    });
  const client: RawClient = {
    child,
    received,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    sendRaw: (text) => child.stdin.write(text),
    request(method, params) {
      const id = nextId++;
      const answer = wait((message) => message.id === id && !('method' in message));
      client.send({ jsonrpc: '2.0', id, method, params });
      return answer;
    },
    nextRequest: (method) => wait((message) => message.method === method),
    exit,
  };
  return client;
}

async function openSession(client: RawClient): Promise<string> {
  await client.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
  });
  const created = await client.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
  return created.result.sessionId as string;
}

/** The failed tool call's text, as the editor (and the model) see it. */
function failedToolText(client: RawClient): string {
  const failed = client.received.find(
    (message) =>
      message.method === 'session/update' &&
      message.params.update.sessionUpdate === 'tool_call_update' &&
      message.params.update.status === 'failed',
  );
  return JSON.stringify(failed?.params.update.content ?? 'no failed tool call');
}

describe('kodo --acp with a client that sends what it cannot take', () => {
  it.each([
    [
      'a 50 MB answer to fs/read_text_file',
      (id: unknown) =>
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":"${'x'.repeat(50 * 1024 * 1024)}"}}\n`,
      /MiB/,
    ],
    [
      'an answer that is not JSON',
      (id: unknown) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":\n`,
      /not valid JSON/,
    ],
    [
      'an answer whose content is a number',
      (id: unknown) => `${JSON.stringify({ jsonrpc: '2.0', id, result: { content: 42 } })}\n`,
      /content must be a string, got number/,
    ],
  ])(
    '%s fails that read only; the next prompt is answered',
    async (_name, answer, reason) => {
      const client = startRaw();
      try {
        const sessionId = await openSession(client);
        const first = client.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: 'read' }],
        });
        const read = await client.nextRequest('fs/read_text_file');
        client.sendRaw(answer(read.id));
        expect((await first).result).toEqual({ stopReason: 'end_turn' });
        expect(failedToolText(client)).toMatch(reason);
        const second = await client.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: 'again' }],
        });
        expect(second.result).toEqual({ stopReason: 'end_turn' });
        const said = client.received
          .filter((message) => message.params?.update?.sessionUpdate === 'agent_message_chunk')
          .map((message) => message.params.update.content.text)
          .join('');
        expect(said).toContain('second answer');
      } finally {
        client.child.stdin.end();
      }
      const { code, stderr } = await client.exit;
      expect(code).toBe(0);
      if (!String(reason).includes('content must be')) expect(stderr).toMatch(/\[WARNING\] ACP: /);
    },
    60_000,
  );

  it('a connection that breaks (stdout closed under kodo) exits non-zero and says why', async () => {
    const client = startRaw();
    await openSession(client);
    client.child.stdout.destroy();
    // kodo's next write finds the pipe closed.
    client.send({ jsonrpc: '2.0', id: 7, method: 'session/list', params: {} });
    const { code, stderr } = await client.exit;
    expect(code).not.toBe(0);
    expect(stderr).toContain('[ERROR] The ACP connection broke');
  }, 30_000);
});
