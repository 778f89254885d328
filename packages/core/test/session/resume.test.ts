import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyProblems } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Content } from '../../src/contracts/messages';
import {
  INTERRUPTED_CALL_MESSAGE,
  MISSING_START_TEXT,
  repairHistory,
} from '../../src/session/history-repair';
import { loadSession } from '../../src/session/resume';
import { SessionStore } from '../../src/session/store';
import type { ToolContext } from '../../src/tools/tool';
import { calls, text } from '../helpers';
import { capturingGenerator, drain, makeSession, readLog, tempProject } from './store-helpers';

let project: ReturnType<typeof tempProject>;
let store: SessionStore;
beforeEach(() => {
  project = tempProject();
  store = new SessionStore({ projectRoot: project.root, dir: project.sessionsDir });
});
afterEach(() => project.cleanup());

const abort = () => new AbortController().signal;

/** Writes a log by hand: the metadata line, then the given lines. */
function writeLog(lines: unknown[], tail = ''): string {
  mkdirSync(project.sessionsDir, { recursive: true });
  const file = join(project.sessionsDir, 'session-2026-08-21T10-30-handmade.jsonl');
  const metadata = {
    sessionId: 'handmade',
    projectHash: 'h',
    startTime: 't',
    lastUpdated: 't',
    kind: 'main',
  };
  writeFileSync(file, `${[metadata, ...lines].map((line) => JSON.stringify(line)).join('\n')}\n${tail}`);
  return file;
}

const user = (id: string, value: string) => ({
  id,
  timestamp: 't',
  type: 'user',
  content: [{ text: value }],
});
const gemini = (id: string, value: string) => ({
  id,
  timestamp: 't',
  type: 'gemini',
  content: [{ text: value }],
});

describe('resuming a recorded session', () => {
  it('restores history, stats and todos, and appends to the same file', async () => {
    const first = capturingGenerator([
      [calls({ name: 'echo', args: { value: 'a' }, id: 'c1' })],
      [text('Done.')],
    ]);
    const recorder = store.newRecorder({ sessionId: 'resume-me' });
    const original = makeSession(project.root, first, { sessionId: 'resume-me', recorder });
    // What write_todos does, through the session's tool context (the session's own, not the caller's).
    (original as unknown as { toolContext: ToolContext }).toolContext.todos?.set([
      { description: 'ship it', status: 'in_progress' },
    ]);
    await drain(original.sendMessage('start', abort()));

    const summary = store.resolve('latest')!;
    expect(summary.id).toBe('resume-me');
    const { loaded, recorder: appender } = await store.resume(summary, { spillDir: project.spillDir });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.history).toEqual(original.history());
    expect(appender.file).toBe(recorder.file);

    const second = capturingGenerator([[text('Continued.')]]);
    const resumed = makeSession(project.root, second, {
      sessionId: loaded.metadata.sessionId,
      history: loaded.history,
      restored: { stats: loaded.stats!, todos: loaded.todos! },
      recorder: appender,
    });
    expect(resumed.todos()).toEqual([{ description: 'ship it', status: 'in_progress' }]);
    await drain(resumed.sendMessage('continue', abort()));
    // The model sees the old conversation, then the new prompt, and a valid history.
    const contents = second.requests[0]!.contents;
    expect(contents.slice(0, 4)).toEqual(original.history());
    expect(contents[4]).toEqual({ role: 'user', parts: [{ text: 'continue' }] });
    expect(historyProblems(contents)).toEqual([]);
    expect(resumed.statsSnapshot().models['test-model']!.api.totalRequests).toBe(3);
    expect(resumed.statsSnapshot().tools.totalCalls).toBe(1);

    expect(readdirSync(project.sessionsDir)).toHaveLength(1);
    const again = await loadSession(recorder.file);
    expect(again.history).toEqual(resumed.history());
    expect(again.stats!.models['test-model']!.api.totalRequests).toBe(3);
  });

  it('skips a torn last line with a warning, and the next append starts on a fresh line', async () => {
    const file = writeLog([user('u1', 'hello'), gemini('g1', 'hi')], '{"id":"u2","type":"us');
    const { loaded, recorder } = await store.resume(store.resolve('latest')!);
    expect(loaded.warnings).toEqual([
      'Skipped an incomplete last record in session-2026-08-21T10-30-handmade.jsonl (the session stopped while it was being written).',
    ]);
    expect(loaded.history).toEqual([
      { role: 'user', parts: [{ text: 'hello' }] },
      { role: 'model', parts: [{ text: 'hi' }] },
    ]);
    const session = makeSession(project.root, capturingGenerator([[text('back')]]), {
      history: loaded.history,
      recorder,
    });
    await drain(session.sendMessage('again', abort()));
    const raw = readFileSync(file, 'utf8').split('\n');
    expect(raw.filter((line) => line.startsWith('{"id":"u2","type":"us'))).toEqual(['{"id":"u2","type":"us']);
    const reloaded = await loadSession(file);
    expect(reloaded.warnings).toEqual([
      'Skipped 1 unreadable record(s) in session-2026-08-21T10-30-handmade.jsonl.',
    ]);
    expect(reloaded.history.map((content) => content.parts[0]!.text)).toEqual([
      'hello',
      'hi',
      'again',
      'back',
    ]);
  });

  it('applies upserts, $rewindTo and $set', async () => {
    const file = writeLog([
      user('u1', 'one'),
      gemini('g1', 'two'),
      user('u2', 'three'),
      gemini('g2', 'four'),
      { ...gemini('g1', 'TWO'), model: 'm' },
      { $rewindTo: 'u2' },
      { $set: { summary: 'about numbers', lastUpdated: 'later' } },
    ]);
    const loaded = await loadSession(file);
    expect(loaded.history.map((content) => content.parts[0]!.text)).toEqual(['one', 'TWO']);
    expect(loaded.metadata).toMatchObject({
      sessionId: 'handmade',
      summary: 'about numbers',
      lastUpdated: 'later',
    });
    expect(loaded.lastRecordId).toBe('g1');

    appendFileSync(file, `${JSON.stringify({ $rewindTo: 'unknown' })}\n`);
    expect((await loadSession(file)).history).toEqual([]);

    appendFileSync(
      file,
      `${JSON.stringify({ $set: { messages: [user('x', 'fresh'), gemini('y', 'start')] } })}\n`,
    );
    appendFileSync(file, `${JSON.stringify(user('z', 'next'))}\n`);
    const checkpointed = await loadSession(file);
    expect(checkpointed.history.map((content) => content.parts[0]!.text)).toEqual(['fresh', 'start', 'next']);
  });

  it('answers a call left dangling at the end with a cancelled response', async () => {
    const file = writeLog([
      user('u1', 'edit it'),
      {
        id: 'g1',
        timestamp: 't',
        type: 'gemini',
        content: [{ functionCall: { id: 'c1', name: 'write_file', args: {} } }],
      },
    ]);
    const loaded = await loadSession(file);
    expect(loaded.history[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'c1', name: 'write_file', response: { error: INTERRUPTED_CALL_MESSAGE } } },
      ],
    });
    expect(loaded.lastRecordId).toBeUndefined();
    expect(historyProblems([...loaded.history, { role: 'model', parts: [{ text: 'x' }] }])).toEqual([]);
  });

  it('reads Gemini CLI-style records (tool calls with results on the model message, string content)', async () => {
    const file = writeLog([
      { id: 'u1', timestamp: 't', type: 'user', content: 'list files' },
      {
        id: 'g1',
        timestamp: 't',
        type: 'gemini',
        content: 'Looking.',
        toolCalls: [
          {
            id: 'c1',
            name: 'glob',
            args: { pattern: '*' },
            status: 'success',
            result: [{ functionResponse: { id: 'c1', name: 'glob', response: { output: 'a.ts' } } }],
          },
        ],
      },
      { id: 'i1', timestamp: 't', type: 'info', content: 'not for the model' },
      { id: 'g2', timestamp: 't', type: 'gemini', content: 'One file.' },
    ]);
    const { history } = await loadSession(file);
    expect(history).toEqual([
      { role: 'user', parts: [{ text: 'list files' }] },
      {
        role: 'model',
        parts: [{ text: 'Looking.' }, { functionCall: { id: 'c1', name: 'glob', args: { pattern: '*' } } }],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'glob', response: { output: 'a.ts' } } }],
      },
      { role: 'model', parts: [{ text: 'One file.' }] },
    ]);
  });

  it('masks old large outputs while loading, keeps the newest whole, and reuses the saved files', async () => {
    const lines: unknown[] = [];
    for (let turn = 0; turn < 12; turn += 1) {
      lines.push(user(`u${turn}`, `step ${turn}`));
      lines.push({
        id: `g${turn}`,
        timestamp: 't',
        type: 'gemini',
        content: [{ functionCall: { id: `c${turn}`, name: 'read_file', args: {} } }],
      });
      lines.push({
        id: `r${turn}`,
        timestamp: 't',
        type: 'user',
        content: [
          {
            functionResponse: {
              id: `c${turn}`,
              name: 'read_file',
              response: { output: `${turn}:`.padEnd(20_000, 'x') },
            },
          },
        ],
      });
    }
    const file = writeLog(lines);
    // 20,000 characters ≈ 5,000 tokens an output: a 12,000-token window keeps the newest two.
    const loaded = await loadSession(file, { spillDir: project.spillDir, protectedTokens: 12_000 });
    const outputs = loaded.history.flatMap((content) =>
      content.parts.flatMap((part) =>
        part.functionResponse ? [String(part.functionResponse.response.output)] : [],
      ),
    );
    expect(loaded.maskedOutputs).toBe(10);
    expect(outputs.slice(-2).map((output) => output.length)).toEqual([20_000, 20_000]);
    const masked = outputs[0]!;
    expect(masked).toMatch(
      /^<tool_output_masked>\n0:x+\n\.\.\. \[TRUNCATED\] \.\.\.\nx+\n\nOutput too large\. Full output available at: /,
    );
    const saved = /available at: (.+)\n/.exec(masked)![1]!;
    expect(saved.startsWith(join(project.spillDir, 'tool-outputs', 'session-handmade'))).toBe(true);
    expect(readFileSync(saved, 'utf8')).toBe('0:'.padEnd(20_000, 'x'));
    expect(historyProblems(loaded.history)).toEqual([]);

    const again = await loadSession(file, { spillDir: project.spillDir, protectedTokens: 12_000 });
    expect(again.history).toEqual(loaded.history);
    // Without a place to save them, nothing is masked (nothing may be lost).
    expect((await loadSession(file)).maskedOutputs).toBe(0);
  });

  it('restores counters and todos only when they have the shape the session keeps', async () => {
    const file = writeLog([
      user('u1', 'hello'),
      {
        $set: {
          stats: { models: {}, tools: { totalCalls: 3 } },
          todos: [{ description: 'x', status: 'weird' }],
        },
      },
    ]);
    const loaded = await loadSession(file);
    expect(loaded.stats).toBeUndefined();
    expect(loaded.todos).toBeUndefined();
    expect(loaded.warnings).toEqual([
      'The usage counters in session-2026-08-21T10-30-handmade.jsonl are unreadable; they start again from zero.',
    ]);
  });

  it('reads lines longer than a read chunk and CRLF line ends', async () => {
    const big = 'é'.repeat(1_500_000);
    const file = writeLog([user('u1', big), gemini('g1', 'ok')]);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
    const loaded = await loadSession(file);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.history.map((content) => content.parts[0]!.text)).toEqual([big, 'ok']);
  });

  it('rejects a file that is not a session log', async () => {
    mkdirSync(project.sessionsDir, { recursive: true });
    const file = join(project.sessionsDir, 'other.jsonl');
    writeFileSync(file, '{"hello":"world"}\n');
    await expect(loadSession(file)).rejects.toThrow('is not a session log');
  });

  it('keeps recording correctly after a resume whose last turn was repaired', async () => {
    const file = writeLog([
      user('u1', 'edit it'),
      {
        id: 'g1',
        timestamp: 't',
        type: 'gemini',
        content: [{ functionCall: { id: 'c1', name: 'echo', args: {} } }],
      },
    ]);
    const { loaded, recorder } = await store.resume(store.resolve('latest')!);
    const session = makeSession(project.root, capturingGenerator([[text('ok')]]), {
      history: loaded.history,
      recorder,
    });
    await drain(session.sendMessage('what happened?', abort()));
    const reloaded = await loadSession(file);
    expect(reloaded.history).toEqual(session.history());
    // The merged turn could not be upserted onto a record the file never had: a checkpoint was written.
    expect(readLog(file).some((line) => (line.$set as { messages?: unknown })?.messages)).toBe(true);
  });
});

describe('repairHistory', () => {
  it('merges same-role neighbours, drops orphaned responses, orders responses like the calls', () => {
    const history: Content[] = [
      { role: 'model', parts: [{ text: 'hello?' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'orphan', response: {} } }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'b', response: { output: 'B' } } },
          { text: 'and then' },
          { functionResponse: { name: 'a', response: { output: 'A' } } },
        ],
      },
      { role: 'user', parts: [{ text: 'more' }] },
    ];
    const repaired = repairHistory(history);
    // Without the orphaned response between them, the two model turns become one.
    expect(repaired).toEqual([
      { role: 'user', parts: [{ text: MISSING_START_TEXT }] },
      {
        role: 'model',
        parts: [
          { text: 'hello?' },
          { functionCall: { name: 'a', args: {} } },
          { functionCall: { name: 'b', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'a', response: { output: 'A' } } },
          { functionResponse: { name: 'b', response: { output: 'B' } } },
          { text: 'and then' },
          { text: 'more' },
        ],
      },
    ]);
    expect(historyProblems(repaired)).toEqual([]);
  });

  it('keeps entries that need no change as they are', () => {
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ text: 'a' }] },
    ];
    const repaired = repairHistory(history);
    expect(repaired[0]).toBe(history[0]);
    expect(repaired[1]).toBe(history[1]);
  });
});
