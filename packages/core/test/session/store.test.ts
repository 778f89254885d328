import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../src/contracts/messages';
import { SessionRecorder } from '../../src/session/recorder';
import { loadSession } from '../../src/session/resume';
import { formatSessionList } from '../../src/session/session-files';
import type { SessionStatsSnapshot } from '../../src/session/stats';
import { InvalidSessionError, SessionStore } from '../../src/session/store';
import { projectHash } from '../../src/utils/project-hash';
import { calls, text } from '../helpers';
import { capturingGenerator, drain, makeSession, readLog, tempProject } from './store-helpers';

const withUsage = (response: GenerateResponse, prompt: number, output: number): GenerateResponse => ({
  ...response,
  usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: output, totalTokenCount: prompt + output },
});

let project: ReturnType<typeof tempProject>;
let store: SessionStore;
beforeEach(() => {
  project = tempProject();
  store = new SessionStore({ projectRoot: project.root, dir: project.sessionsDir });
});
afterEach(() => project.cleanup());

const abort = () => new AbortController().signal;

describe('SessionRecorder', () => {
  it('records metadata, prompts, model turns with tokens, function responses and stats', async () => {
    const generator = capturingGenerator([
      [withUsage(calls({ name: 'echo', args: { value: 'a' }, id: 'c1' }), 10, 2)],
      [withUsage(text('Done.'), 20, 3)],
    ]);
    const recorder = store.newRecorder({ sessionId: 'sess-1', startTime: new Date('2026-08-21T10:30:59Z') });
    const session = makeSession(project.root, generator, { sessionId: 'sess-1', recorder });
    await drain(session.sendMessage('do it', abort()));

    expect(readdirSync(project.sessionsDir)).toEqual(['session-2026-08-21T10-30-sess-1.jsonl']);
    expect(statSync(recorder.file).mode & 0o777).toBe(0o600);
    const lines = readLog(recorder.file);
    expect(lines[0]).toMatchObject({
      sessionId: 'sess-1',
      projectHash: createHash('sha256').update(project.root).digest('hex'),
      kind: 'main',
      directories: [project.root],
    });
    const messages = lines.filter((line) => 'type' in line);
    expect(messages.map((line) => line.type)).toEqual(['user', 'gemini', 'user', 'gemini']);
    expect(messages[0]!.content).toEqual([{ text: 'do it' }]);
    expect(messages[1]).toMatchObject({
      content: [{ functionCall: { id: 'c1', name: 'echo', args: { value: 'a' } } }],
      tokens: { input: 10, output: 2, cached: 0, total: 12 },
      model: 'test-model',
    });
    expect(messages[2]).toMatchObject({
      content: [{ functionResponse: { id: 'c1', name: 'echo', response: { output: 'echo a' } } }],
      toolResults: [{ id: 'c1', name: 'echo', status: 'success', resultDisplay: 'a' }],
    });
    expect(messages[3]).toMatchObject({ content: [{ text: 'Done.' }], tokens: { input: 20, output: 3 } });
    const lastSet = lines.filter((line) => '$set' in line).at(-1)!.$set as { stats: SessionStatsSnapshot };
    expect(lastSet.stats.tools.totalCalls).toBe(1);
    expect(lastSet.stats.models['test-model']!.api.totalRequests).toBe(2);
  });

  it('has the prompt and each batch of tool results on disk before the next request goes out', async () => {
    let file = '';
    const seenOnDisk: string[][] = [];
    const generator = capturingGenerator(
      [[calls({ name: 'echo', args: { value: 'x' }, id: 'c1' })], [text('ok')], [text('ok again')]],
      () => {
        // What a `kill -9` at this moment would leave behind.
        const lines = existsSync(file) ? readLog(file) : [];
        seenOnDisk.push(lines.flatMap((line) => (line.type ? [String(line.type)] : [])));
      },
    );
    const recorder = store.newRecorder({ sessionId: 'durable' });
    file = recorder.file;
    const session = makeSession(project.root, generator, { recorder });
    await drain(session.sendMessage('go', abort()));
    await drain(session.sendMessage('again', abort()));
    // The file is created after the first request (off the startup path); from then on each
    // prompt and each batch of results is written before the request that carries it.
    expect(seenOnDisk).toEqual([
      [],
      ['user', 'gemini', 'user'],
      ['user', 'gemini', 'user', 'gemini', 'user'],
    ]);
  });

  it('keeps the typed prompt as displayContent when context was added to it', async () => {
    const generator = capturingGenerator([[text('hi')]]);
    const recorder = store.newRecorder({ sessionId: 'display' });
    const session = makeSession(project.root, generator, { recorder, includeEnvironmentContext: true });
    await drain(session.sendMessage('hello there', abort()));
    const user = readLog(recorder.file).find((line) => line.type === 'user')!;
    expect((user.content as { text: string }[])[0]!.text).toContain('kodo');
    expect(user.displayContent).toBe('hello there');
    expect(store.list()[0]!.title).toBe('hello there');
  });

  it('upserts a user turn that a later prompt merged into, instead of appending it twice', async () => {
    // Context added between prompts (a `!command`'s output) is recorded, then the prompt merges in.
    const generator = capturingGenerator([[text('Zero.')], [text('Answer.')]]);
    const recorder = store.newRecorder({ sessionId: 'merge' });
    const session = makeSession(project.root, generator, { recorder });
    await drain(session.sendMessage('zero', abort()));
    session.addContext([{ text: 'first' }]);
    await drain(session.sendMessage('second', abort()));
    const messages = readLog(recorder.file).filter((line) => line.type === 'user');
    expect(messages).toHaveLength(3);
    expect(messages[2]!.id).toBe(messages[1]!.id);
    expect(messages[2]!.content).toEqual([{ text: 'first' }, { text: 'second' }]);
  });

  it('writes a rewritten history (compression, masking, clearing) as one $set with every message', async () => {
    const generator = capturingGenerator([[text('one')], [text('two')]]);
    const recorder = store.newRecorder({ sessionId: 'rewrite' });
    const session = makeSession(project.root, generator, { recorder });
    await drain(session.sendMessage('a', abort()));
    session.replaceHistory(
      [
        { role: 'user', parts: [{ text: 'summary' }] },
        { role: 'model', parts: [{ text: 'ack' }] },
      ],
      { reason: 'replace' },
    );
    await drain(session.sendMessage('b', abort()));
    const lines = readLog(recorder.file);
    const checkpoint = lines.find((line) => (line.$set as { messages?: unknown })?.messages)!;
    const messages = (checkpoint.$set as { messages: { content: unknown }[] }).messages;
    // The replacement is recorded when it happens, before the next prompt.
    expect(messages.map((message) => message.content)).toEqual([[{ text: 'summary' }], [{ text: 'ack' }]]);
    // Appending resumes after the checkpoint: the prompt and the answer are one new record each.
    const after = lines.slice(lines.indexOf(checkpoint) + 1).filter((line) => line.type);
    expect(after.map((line) => line.content)).toEqual([[{ text: 'b' }], [{ text: 'two' }]]);
  });

  it('records masking as upserts of the masked messages only, and the log resumes to the masked history', async () => {
    // Ten tool turns of ~10k tokens each: past 80k unmasked tokens, the oldest outputs are masked.
    const script = Array.from({ length: 10 }, (_, index) => [
      calls({ name: 'echo', args: { value: `${index}${'q'.repeat(40_000)}` }, id: `c${index}` }),
    ]);
    const recorder = store.newRecorder({ sessionId: 'masking' });
    const session = makeSession(project.root, capturingGenerator([...script, [text('Done.')]]), {
      recorder,
      outputLimit: { thresholdChars: 1_000_000, spillDir: project.spillDir },
    });
    await drain(session.sendMessage('go', abort()));
    const masked = session
      .history()
      .filter((entry) =>
        entry.parts.some((part) =>
          String(part.functionResponse?.response.output ?? '').startsWith('<tool_output_masked>'),
        ),
      );
    expect(masked.length).toBeGreaterThan(0);

    const lines = readLog(recorder.file);
    expect(lines.some((line) => (line.$set as { messages?: unknown })?.messages)).toBe(false);
    const seen = new Set<unknown>();
    const upserts = lines.filter((line) => {
      if (!line.type) return false;
      const again = seen.has(line.id);
      seen.add(line.id);
      return again;
    });
    // Each masked message once, rewritten under its own id; nothing else is written twice.
    expect(upserts.map((line) => line.content)).toEqual(masked.map((entry) => entry.parts));
    expect((await loadSession(recorder.file)).history).toEqual(session.history());
  });

  it('never rewrites earlier records on a plain turn (one line per new message)', async () => {
    const script = Array.from({ length: 5 }, (_, index) => [text(`answer ${index}`)]);
    const recorder = store.newRecorder({ sessionId: 'append' });
    const session = makeSession(project.root, capturingGenerator(script), { recorder });
    for (let index = 0; index < 5; index += 1) await drain(session.sendMessage(`q${index}`, abort()));
    const lines = readLog(recorder.file);
    expect(lines.filter((line) => line.type)).toHaveLength(10);
    expect(lines.some((line) => (line.$set as { messages?: unknown })?.messages)).toBe(false);
  });

  it('reports a write failure once and lets the session go on', async () => {
    const blocker = join(project.root, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const errors: string[] = [];
    const recorder = new SessionRecorder({
      file: join(blocker, 'session.jsonl'),
      sessionId: 'broken',
      projectRoot: project.root,
      onError: (message) => errors.push(message),
    });
    const session = makeSession(project.root, capturingGenerator([[text('fine')]]), { recorder });
    const result = await drain(session.sendMessage('go', abort()));
    expect(result).toMatchObject({ kind: 'completed', text: 'fine' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Session recording stopped: /);
  });
});

/** A minimal session log written by hand. */
function writeSession(id: string, startTime: string, prompt: string, mtime: Date): string {
  mkdirSync(project.sessionsDir, { recursive: true });
  const file = join(
    project.sessionsDir,
    `session-${startTime.slice(0, 16).replace(/:/g, '-')}-${id.slice(0, 8)}.jsonl`,
  );
  const lines = [
    { sessionId: id, projectHash: 'h', startTime, lastUpdated: startTime, kind: 'main' },
    { id: 'm1', timestamp: startTime, type: 'user', content: [{ text: prompt }] },
  ];
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  utimesSync(file, mtime, mtime);
  return file;
}

describe('SessionStore', () => {
  const now = new Date('2026-08-21T12:00:00Z');
  const ids = ['11111111-aaaa-4aaa-8aaa-000000000001', '22222222-bbbb-4bbb-8bbb-000000000002'];

  beforeEach(() => {
    // Written newest first: the list still numbers them by start time.
    writeSession(
      ids[1]!,
      '2026-08-21T09:00:00.000Z',
      'second   session\nprompt',
      new Date('2026-08-21T11:00:00Z'),
    );
    writeSession(ids[0]!, '2026-08-20T09:00:00.000Z', 'x'.repeat(150), new Date('2026-08-21T11:55:00Z'));
  });

  it('lists sessions oldest first in the --list-sessions format', () => {
    const list = store.list();
    expect(list.map((session) => session.id)).toEqual(ids);
    expect(formatSessionList(list, { now })).toBe(
      `\nAvailable sessions for this project (2):\n` +
        `  1. ${'x'.repeat(97)}... (5 minutes ago) [${ids[0]}]\n` +
        `  2. second session prompt (1 hour ago) [${ids[1]}]\n`,
    );
    expect(formatSessionList(list, { now, currentId: ids[1] })).toContain('(1 hour ago, current)');
    expect(formatSessionList([], { now })).toBe('No previous sessions found for this project.\n');
  });

  it('resolves latest, an index and an id; anything else is an invalid identifier', () => {
    expect(store.resolve('latest')?.id).toBe(ids[1]);
    expect(store.resolve('1')?.id).toBe(ids[0]);
    expect(store.resolve(ids[1]!)?.id).toBe(ids[1]);
    expect(() => store.resolve('3')).toThrow(InvalidSessionError);
    expect(() => store.resolve('nope')).toThrow(
      `Invalid session identifier "nope".\n  Searched for sessions in ${project.sessionsDir}.\n  Use --list-sessions to see available sessions, then use --resume {number}, --resume {uuid}, or --resume latest.`,
    );
    expect(
      new SessionStore({ projectRoot: project.root, dir: join(project.root, 'empty') }).resolve('latest'),
    ).toBe(undefined);
  });

  it('deletes by index or id', () => {
    const deleted = store.delete('2');
    expect(deleted.id).toBe(ids[1]);
    expect(store.list().map((session) => session.id)).toEqual([ids[0]]);
    store.delete(ids[0]!);
    expect(store.list()).toEqual([]);
    expect(() => store.delete('1')).toThrow(InvalidSessionError);
  });

  it('skips files that are not session logs', () => {
    writeFileSync(join(project.sessionsDir, 'session-2026-08-22T00-00-garbage.jsonl'), 'not json\n');
    writeFileSync(join(project.sessionsDir, 'notes.txt'), 'hello');
    expect(store.list()).toHaveLength(2);
  });
});

describe('projectHash', () => {
  it('is the SHA-256 hex of the path (one block, several blocks, non-ASCII)', () => {
    for (const path of [
      '',
      '/a',
      '/tmp/project',
      `/home/${'deep/'.repeat(40)}x`,
      '/プロジェクト/ü',
      'x'.repeat(55),
      'y'.repeat(64),
    ]) {
      expect(projectHash(path)).toBe(createHash('sha256').update(path).digest('hex'));
    }
  });
});

describe('ChatCheckpoints', () => {
  const history = [
    { role: 'user' as const, parts: [{ text: 'hi' }] },
    { role: 'model' as const, parts: [{ functionCall: { id: 'c', name: 'echo', args: {} } }] },
  ];

  it('saves, lists, loads (with a valid history) and deletes named save points', () => {
    const checkpoints = store.checkpoints();
    expect(checkpoints.list()).toEqual([]);
    const file = checkpoints.save('feature/one..', { history, sessionId: 's' });
    expect(file.startsWith(join(project.sessionsDir, 'checkpoints', 'checkpoint-'))).toBe(true);
    expect(file).not.toContain('..');
    expect(checkpoints.exists('feature/one..')).toBe(true);
    checkpoints.save('two', { history: [history[0]!] });
    expect(
      checkpoints
        .list()
        .map((info) => info.tag)
        .sort(),
    ).toEqual(['feature/one..', 'two']);
    const loaded = checkpoints.load('feature/one..')!;
    expect(loaded.sessionId).toBe('s');
    // The dangling call got a response, so the history can be sent as it is.
    expect(loaded.history).toHaveLength(3);
    expect(loaded.history[2]!.parts[0]!.functionResponse).toMatchObject({ id: 'c', name: 'echo' });
    expect(checkpoints.load('missing')).toBeUndefined();
    expect(checkpoints.delete('two')).toBe(true);
    expect(checkpoints.delete('two')).toBe(false);
    expect(checkpoints.list().map((info) => info.tag)).toEqual(['feature/one..']);
    expect(JSON.parse(readFileSync(file, 'utf8')).tag).toBe('feature/one..');
  });
});
