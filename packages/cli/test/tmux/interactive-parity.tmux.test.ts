import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOnPath, probeBwrap } from '@kodo/core/engine';
import {
  type GeminiMock,
  geminiChunk,
  hasTmux,
  KODO_READY,
  KodoTmux,
  startGeminiMock,
  type TmuxSession,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * What a user coming from another agent expects of the interactive UI, in a real terminal
 * (tmux): type-ahead queued while a turn streams, a shell command that reads from its terminal,
 * vim keybindings, and the note for a model that has not answered yet.
 */
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const BWRAP = findOnPath('bwrap', process.env);
const bwrapWorks = BWRAP ? (await probeBwrap(BWRAP)).ok : false;

/** Seccomp filters on this test process (a container may already have one). */
function ownSeccompFilters(): number {
  const line = /^Seccomp_filters:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(line?.[1] ?? 0);
}

let kodo: KodoTmux;

beforeEach(() => {
  kodo = new KodoTmux();
});
afterEach(() => kodo.close());

function mockEnv(server: GeminiMock): Record<string, string> {
  return { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.url };
}

/** The last text part of the last user turn of a recorded Gemini request (after any context). */
function lastUserText(body: unknown): string {
  const contents = (body as { contents: { role: string; parts: { text?: string }[] }[] }).contents;
  const user = contents.filter((content) => content.role === 'user').at(-1);
  return (user?.parts ?? []).filter((part) => part.text !== undefined).at(-1)?.text ?? '';
}

async function typeLine(session: TmuxSession, text: string, key = 'Enter'): Promise<void> {
  session.type(text);
  await session.waitFor(text);
  session.press(key);
}

const words = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) =>
    geminiChunk([{ text: `${prefix} ${index + 1}. ` }], { last: false }),
  );

describe.skipIf(!hasTmux())('kodo interactive parity in a real terminal', () => {
  it('queues prompts typed while an answer streams and sends them in order; Esc drops the last one', async () => {
    const mock = kodo.serve(
      await startGeminiMock({
        script: [
          { chunks: [...words(20, 'Part'), geminiChunk([{ text: 'first-done' }])], delayMs: 500 },
          { chunks: [geminiChunk([{ text: 'answer-to-second' }])] },
          { chunks: [geminiChunk([{ text: 'answer-to-third' }])] },
        ],
      }),
    );
    const session = await kodo.startReady([], { env: mockEnv(mock) });
    await typeLine(session, 'first prompt');
    await session.waitFor('Part 1.');
    // Each line waits for the one before it to be queued: typed in one burst, the terminal would
    // deliver Enter and the next text together, which reads as a paste.
    // Tab queues a line for after the turn (Enter would steer it).
    await typeLine(session, 'second prompt', 'Tab');
    await session.waitFor('Queued (1)');
    await typeLine(session, 'third prompt', 'Tab');
    await session.waitFor('Queued (2)');
    await typeLine(session, 'a mistake', 'Tab');
    const queued = await session.waitFor('Queued (3)');
    expect(queued).toMatch(/› second prompt[\s\S]*› third prompt[\s\S]*› a mistake/);
    // With prompts queued, Esc takes back the newest one and leaves the running turn alone.
    session.press('Escape');
    const after = await session.waitFor('Queued (2)');
    expect(after).not.toContain('a mistake');
    await session.waitFor('answer-to-third', 20_000);
    const screen = session.capture();
    expect(screen).toContain('Part 20. first-done');
    expect(screen).not.toContain('Request cancelled');
    expect(screen.indexOf('> second prompt')).toBeLessThan(screen.indexOf('> third prompt'));
    expect(screen.indexOf('answer-to-second')).toBeLessThan(screen.indexOf('> third prompt'));
    expect(screen).not.toContain('Queued (');
    expect(mock.requests.map((request) => lastUserText(request.body))).toEqual([
      'first prompt',
      'second prompt',
      'third prompt',
    ]);
  });

  it('runs a shell command in a terminal the person can focus (Ctrl+F), type into and leave', async () => {
    const session = await kodo.startReady([
      '--yolo',
      '--fake-responses',
      join(fixtures, 'ui-shell-pty.jsonl'),
    ]);
    await typeLine(session, 'ask me');
    await session.waitFor(/│ Your name\?/);
    await session.waitFor('ctrl+f to type into the command');
    session.press('C-f');
    await session.waitFor('typing into the command');
    session.type('Ada');
    await session.waitFor(/│ Your name\? Ada/);
    session.press('Enter');
    const done = await session.waitFor('The command greeted you.');
    expect(done).toMatch(/✔ Shell read -p .*· done/);
    expect(done).toContain('hello, Ada');
    // The command's stdin was the terminal, and nothing typed went to the prompt.
    expect(done).toContain('stdin-is-a-terminal');
    await session.waitFor(KODO_READY);
    expect(session.capture()).not.toMatch(/> .*Ada/);
  });

  it('leaves the shell focus with Ctrl+F: the prompt gets the keys again', async () => {
    const session = await kodo.startReady([
      '--yolo',
      '--fake-responses',
      join(fixtures, 'ui-shell-pty.jsonl'),
    ]);
    await typeLine(session, 'ask me');
    await session.waitFor('ctrl+f to type into the command');
    session.press('C-f');
    await session.waitFor('typing into the command');
    session.press('C-f');
    await session.waitFor('ctrl+f to type into the command');
    session.type('typed ahead');
    await session.waitFor('> typed ahead');
    // Back into the command to answer it; the typed-ahead text stayed in the prompt.
    session.press('C-f');
    await session.waitFor('typing into the command');
    session.type('Bo');
    session.press('Enter');
    await session.waitFor('hello, Bo');
  });

  it.skipIf(!bwrapWorks)(
    'keeps the sandbox around a command in the terminal (bwrap, its seccomp filter)',
    async () => {
      const session = await kodo.startReady([
        '--yolo',
        '-s',
        '--fake-responses',
        join(fixtures, 'ui-shell-pty-sandbox.jsonl'),
      ]);
      await typeLine(session, 'check it');
      const asking = await session.waitFor(/│ Continue\?/);
      // bwrap got the filter through the descriptor the terminal's launcher reopened.
      const filters = Number(/filters=(\d+)/.exec(asking)?.[1] ?? -1);
      expect(filters).toBeGreaterThan(ownSeccompFilters());
      expect(asking).toContain('pty-in-sandbox');
      expect(asking).toMatch(/· yolo · bwrap/);
      session.press('C-f');
      await session.waitFor('typing into the command');
      session.type('yes');
      session.press('Enter');
      const done = await session.waitFor('Sandbox checked.');
      expect(done).toContain('answered yes');
    },
  );

  it('/vim turns on vim keys: edit in normal mode, then submit; the setting is saved', async () => {
    const mock = kodo.serve(
      await startGeminiMock({ script: [{ chunks: [geminiChunk([{ text: 'vim-answer' }])] }] }),
    );
    const session = await kodo.startReady([], { env: mockEnv(mock) });
    await typeLine(session, '/vim');
    await session.waitFor('Vim mode on');
    await session.waitFor('[INSERT]');
    session.type('hello wrld');
    await session.waitFor('> hello wrld');
    session.press('Escape');
    await session.waitFor('[NORMAL]');
    // Normal mode: `b` to the start of "wrld", `l` onto the r, `i` inserts "o" before it.
    session.type('bli');
    await session.waitFor('[INSERT]');
    session.type('o');
    await session.waitFor('> hello world');
    session.press('Escape');
    await session.waitFor('[NORMAL]');
    // `0` to the start, `x` deletes the h; `A` appends at the end.
    session.type('0x');
    await session.waitFor('> ello world');
    session.type('A');
    session.type('!');
    await session.waitFor('> ello world!');
    session.press('Escape');
    await session.waitFor('[NORMAL]');
    session.press('Enter');
    await session.waitFor('vim-answer');
    expect(lastUserText(mock.requests[0]?.body)).toBe('ello world!');
    const saved = JSON.parse(readFileSync(join(kodo.home, 'settings.json'), 'utf8')) as {
      general?: { vimMode?: boolean };
    };
    expect(saved.general?.vimMode).toBe(true);
  });

  it('says it is waiting for the model while the first byte is late, with the seconds', async () => {
    const mock = kodo.serve(
      await startGeminiMock({
        script: [{ chunks: [geminiChunk([{ text: 'late-answer' }])], initialDelayMs: 6_000 }],
      }),
    );
    const session = await kodo.startReady([], { env: mockEnv(mock) });
    await typeLine(session, 'are you there');
    const waiting = await session.waitFor(/Waiting for the model… [3-9] s/, 8_000);
    expect(waiting).not.toContain('late-answer');
    const later = await session.waitFor(/Waiting for the model… [4-9] s/, 4_000);
    expect(later).toContain('esc to cancel');
    const answered = await session.waitFor('late-answer', 10_000);
    expect(answered).not.toContain('Waiting for the model');
  });
});
