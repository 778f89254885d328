import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type GeminiMock,
  geminiFunctionCallReply,
  geminiTextReply,
  historyProblems,
  KODO_BIN,
  runKodo,
  startGeminiMock,
  type WireContent,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const textOnly = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'text-only.jsonl');

const dirs = e2eDirs();
let mock: GeminiMock | undefined;
beforeEach(() => writeFileSync(join(dirs.workspace, 'a.txt'), 'hi from a\n'));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const mockEnv = () => ({
  KODO_HOME: dirs.home,
  GEMINI_API_KEY: 'test-key',
  GOOGLE_GEMINI_BASE_URL: mock!.url,
  KODO_RETRY_BASE_MS: '1',
});
const kodo = (args: string[], env: Record<string, string> = { KODO_HOME: dirs.home }) =>
  runKodo(args, { cwd: dirs.workspace, env });

/** The one project's session logs (there is one project per test: the temp workspace). */
function sessionFiles(): string[] {
  const projects = readdirSync(join(dirs.home, 'sessions'));
  expect(projects).toHaveLength(1);
  const dir = join(dirs.home, 'sessions', projects[0]!);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(dir, name));
}

const contentsOf = (index: number) => (mock!.requests[index]!.body as { contents: WireContent[] }).contents;

describe('recorded sessions', () => {
  it('resumes the latest session: same id, same file, the whole history sent, stats carried over', async () => {
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('read_file', { file_path: 'a.txt' }) },
        { chunks: geminiTextReply('It says hi.') },
        { chunks: geminiTextReply('Still here.') },
      ],
    });
    const first = await kodo(['-p', 'read a.txt', '-o', 'json'], mockEnv());
    expect(first.code).toBe(0);
    const firstId = JSON.parse(first.stdout).session_id;
    const [file] = sessionFiles();
    expect(file).toMatch(
      new RegExp(`session-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-${firstId.slice(0, 8)}\\.jsonl$`),
    );

    const second = await kodo(['--resume', '-p', 'continue', '-o', 'json'], mockEnv());
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const result = JSON.parse(second.stdout);
    expect(result.session_id).toBe(firstId);
    expect(result.response).toBe('Still here.');
    expect(result.stats.models['gemini-2.5-pro'].api.totalRequests).toBe(3);
    expect(result.stats.tools.totalCalls).toBe(1);

    const before = contentsOf(1);
    const resumed = contentsOf(2);
    expect(resumed.slice(0, before.length)).toEqual(before);
    expect(resumed.slice(before.length)).toEqual([
      { role: 'model', parts: [{ text: 'It says hi.' }] },
      { role: 'user', parts: [{ text: 'continue' }] },
    ]);
    expect(historyProblems(resumed)).toEqual([]);
    expect(sessionFiles()).toEqual([file]);
    expect(readFileSync(file!, 'utf8')).toContain('"text":"continue"');
  });

  it('loses nothing shown before a kill -9, skips a torn last line on resume, and sends a valid history', async () => {
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('read_file', { file_path: 'a.txt' }) },
        // Never answered in time: kodo is killed while waiting for it.
        { chunks: geminiTextReply('too late'), initialDelayMs: 60_000 },
        { chunks: geminiTextReply('Recovered.') },
      ],
    });
    const child = spawn(process.execPath, [KODO_BIN, '-p', 'read a.txt'], {
      cwd: dirs.workspace,
      env: { PATH: process.env.PATH ?? '', HOME: dirs.home, KODO_TRUST_WORKSPACE: 'true', ...mockEnv() },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin.end();
    const exited = new Promise((resolve) => child.on('close', resolve));
    for (let waited = 0; mock.requests.length < 2 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(mock.requests).toHaveLength(2);
    child.kill('SIGKILL');
    await exited;

    const [file] = sessionFiles();
    const recorded = readFileSync(file!, 'utf8');
    expect(recorded).toContain('"functionResponse":{"name":"read_file","response":{"output":"hi from a"}}');
    appendFileSync(file!, '{"id":"torn","type":"gem');

    const resumed = await kodo(['--resume', 'latest', '-p', 'what happened?'], mockEnv());
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Recovered.\n');
    expect(resumed.stderr).toMatch(/^\[WARNING\] Skipped an incomplete last record in session-.*\.jsonl/);
    const contents = contentsOf(2);
    expect(historyProblems(contents)).toEqual([]);
    expect(contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'read_file', response: { output: 'hi from a' } } },
        { text: 'what happened?' },
      ],
    });
  });

  it('lists, resumes by number, and deletes sessions', async () => {
    expect((await kodo(['--list-sessions'])).stdout).toBe('No previous sessions found for this project.\n');
    for (const prompt of ['first task', 'second task']) {
      expect((await kodo(['-p', prompt, '--fake-responses', textOnly])).code).toBe(0);
    }
    const list = await kodo(['--list-sessions']);
    expect(list.code).toBe(0);
    const lines = list.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['', 'Available sessions for this project (2):']);
    expect(lines[2]).toMatch(/^ {2}1\. first task \(just now\) \[[0-9a-f-]{36}\]$/);
    expect(lines[3]).toMatch(/^ {2}2\. second task \(just now\) \[[0-9a-f-]{36}\]$/);
    const firstId = /\[(.+)\]/.exec(lines[2]!)![1]!;

    const byNumber = await kodo(['-r', '1', '-p', 'more', '--fake-responses', textOnly, '-o', 'json']);
    expect(byNumber.code).toBe(0);
    expect(JSON.parse(byNumber.stdout).session_id).toBe(firstId);

    const deleted = await kodo(['--delete-session', firstId]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(
      new RegExp(`^Deleted session 1: first task \\(.+\\) \\[${firstId}\\]\\n$`),
    );
    expect(sessionFiles()).toHaveLength(1);
    expect((await kodo(['--delete-session', '7'])).code).toBe(42);
  });

  it('rejects identifiers that name no session with exit 42, and starts fresh when there is none to resume', async () => {
    const none = await kodo(['--resume', 'latest', '-p', 'hi', '--fake-responses', textOnly]);
    expect(none.code).toBe(0);
    expect(none.stderr).toBe('[WARNING] No previous sessions found for this project.\n');
    expect(none.stdout).toBe('Hello from kodo.\n');

    const invalid = await kodo(['--resume', 'nope', '-p', 'hi', '--fake-responses', textOnly]);
    expect(invalid.code).toBe(42);
    expect(invalid.stderr).toContain('Invalid session identifier "nope".\n  Searched for sessions in ');
    expect(invalid.stderr).toContain(
      'Use --list-sessions to see available sessions, then use --resume {number}, --resume {uuid}, or --resume latest.',
    );
  });

  it('starts a session with a chosen id once; the same id again is an input error', async () => {
    const run = await kodo([
      '--session-id',
      'my-task_1',
      '-p',
      'hi',
      '--fake-responses',
      textOnly,
      '-o',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).session_id).toBe('my-task_1');
    expect(sessionFiles()[0]).toMatch(/-my-task_\.jsonl$/);

    const again = await kodo(['--session-id', 'my-task_1', '-p', 'hi', '--fake-responses', textOnly]);
    expect(again.code).toBe(42);
    expect(again.stderr).toContain('Session "my-task_1" already exists.');
    expect((await kodo(['--session-id', 'bad id!', '-p', 'hi'])).code).toBe(42);

    const both = await kodo(['--resume', 'latest', '--session-id', 'x', '-p', 'hi']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(
      'The flags --resume, --session-id, and --session-file are mutually exclusive. Please provide only one.',
    );
  });
});
