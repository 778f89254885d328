import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  geminiChunk,
  geminiFunctionCallReply,
  geminiTextReply,
  runKodo,
  startGeminiMock,
} from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();
const user = (content: unknown) => JSON.stringify({ type: 'user', message: { role: 'user', content } });
type Event = { type: string; [field: string]: unknown };
const events = (stdout: string): Event[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Event);

describe('--input-format stream-json', () => {
  it('answers each message in turn in one conversation, each answer ending with its result; EOF ends cleanly', async () => {
    const mock = await startGeminiMock({
      script: [
        { chunks: [geminiChunk([{ text: 'Answer one.' }])] },
        { chunks: [geminiChunk([{ text: 'Answer two.' }])] },
      ],
    });
    try {
      const run = await runKodo(['--input-format', 'stream-json', '-o', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        input: `${user('first question')}\n${user([{ type: 'text', text: 'second question' }])}\n`,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const shape = events(run.stdout).map((event) =>
        event.type === 'message' ? `${event.role}:${event.content}` : event.type,
      );
      expect(shape).toEqual([
        'init',
        'user:first question',
        'assistant:Answer one.',
        'result',
        'user:second question',
        'assistant:Answer two.',
        'result',
      ]);
      // The second request carries the first exchange: one conversation.
      const second = mock.requests[1]!.body as { contents: { role: string; parts: { text?: string }[] }[] };
      const texts = second.contents.map(
        (content) => `${content.role}:${content.parts.map((p) => p.text ?? '').join('|')}`,
      );
      expect(texts.at(-3)).toContain('first question');
      expect(texts.at(-2)).toBe('model:Answer one.');
      expect(texts.at(-1)).toBe('user:second question');
      expect(events(run.stdout)[0]).toMatchObject({ type: 'init', version: 1 });
    } finally {
      await mock.close();
    }
  });

  it('reports a malformed line as an error event and goes on', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: [geminiChunk([{ text: 'ok' }])] }] });
    try {
      const run = await runKodo(['--input-format', 'stream-json', '-o', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        input: `{"type":"user","message":\n${JSON.stringify({ type: 'assistant' })}\n${user([{ type: 'video' }])}\n${user('hello')}\n`,
      });
      expect(run.code).toBe(0);
      const errors = events(run.stdout).filter((event) => event.type === 'error');
      expect(errors.map((event) => event.message)).toEqual([
        expect.stringMatching(/^Invalid input line \(not JSON/),
        expect.stringContaining('expected {"type":"user"'),
        expect.stringContaining('unsupported content block "video"'),
      ]);
      expect(events(run.stdout).filter((event) => event.type === 'result')).toHaveLength(1);
      expect(mock.requests).toHaveLength(1);
    } finally {
      await mock.close();
    }
  });

  it('with text output, prints each answer', async () => {
    const mock = await startGeminiMock({
      script: [{ chunks: [geminiChunk([{ text: 'A1' }])] }, { chunks: [geminiChunk([{ text: 'A2' }])] }],
    });
    try {
      const run = await runKodo(['--input-format', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        input: `${user('q1')}\n${user('q2')}\n`,
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('A1\nA2\n');
    } finally {
      await mock.close();
    }
  });

  it('a message arriving while a turn runs steers it at the next step boundary; "queue": true waits for the turn', async () => {
    writeFileSync(join(dirs.workspace, 'a.txt'), 'alpha\n');
    const mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('read_file', { file_path: 'a.txt' }) },
        { chunks: geminiTextReply('Steered answer.') },
        { chunks: geminiTextReply('Queued answer.') },
      ],
    });
    try {
      const queued = JSON.stringify({
        type: 'user',
        message: { role: 'user', content: 'afterwards' },
        queue: true,
      });
      const run = await runKodo(['--input-format', 'stream-json', '-o', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        // All at once: the second and third lines arrive while the first turn runs.
        input: `${user('read a.txt')}\n${user('actually, also say hi')}\n${queued}\n`,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(mock.requests).toHaveLength(3);
      // The steered line went in after the tool's result, in the same user turn.
      const second = mock.requests[1]!.body as {
        contents: { role: string; parts: { text?: string; functionResponse?: unknown }[] }[];
      };
      const last = second.contents.at(-1)!;
      expect(last.role).toBe('user');
      expect(last.parts.map((part) => (part.functionResponse ? 'response' : part.text))).toEqual([
        'response',
        'actually, also say hi',
      ]);
      // The queued one is a prompt of its own, after the first turn's result.
      const third = mock.requests[2]!.body as { contents: { role: string; parts: { text?: string }[] }[] };
      expect(
        third.contents
          .at(-1)!
          .parts.map((part) => part.text)
          .join(''),
      ).toBe('afterwards');
      const shown = events(run.stdout)
        .filter((event) => event.type === 'result' || (event.type === 'message' && event.role === 'user'))
        .map((event) =>
          event.type === 'result' ? 'result' : `${event.steering ? 'steer' : 'user'}:${event.content}`,
        );
      expect(shown).toEqual([
        'user:read a.txt',
        'steer:actually, also say hi',
        'result',
        'user:afterwards',
        'result',
      ]);
    } finally {
      await mock.close();
    }
  });

  it('a steered line the turn ends without taking is the next prompt', async () => {
    const mock = await startGeminiMock({
      script: [{ chunks: geminiTextReply('One.') }, { chunks: geminiTextReply('Two.') }],
    });
    try {
      const run = await runKodo(['--input-format', 'stream-json', '-o', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        input: `${user('first')}\n${user('second')}\n`,
      });
      expect(run.code).toBe(0);
      expect(mock.requests).toHaveLength(2);
      expect(events(run.stdout).filter((event) => event.type === 'result')).toHaveLength(2);
      const texts = (mock.requests[1]!.body as { contents: { parts: { text?: string }[] }[] }).contents.map(
        (content) => content.parts.map((part) => part.text ?? '').join(''),
      );
      expect(texts.at(-1)).toBe('second');
    } finally {
      await mock.close();
    }
  });

  it('a bad "queue" value is reported and the line skipped', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('ok') }] });
    try {
      const bad = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x' }, queue: 'yes' });
      const run = await runKodo(['--input-format', 'stream-json', '-o', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        input: `${bad}\n${user('hello')}\n`,
      });
      expect(run.code).toBe(0);
      expect(events(run.stdout).filter((event) => event.type === 'error')[0]!.message).toContain(
        '"queue" must be true or false',
      );
      expect(mock.requests).toHaveLength(1);
    } finally {
      await mock.close();
    }
  });
});
