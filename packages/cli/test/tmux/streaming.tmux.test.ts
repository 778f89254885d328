import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { geminiTextReply, hasTmux, KODO_READY, KodoTmux, startGeminiMock } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * The UI under a long streamed answer, in a real terminal (tmux): keys typed meanwhile arrive
 * all and in order, the answer's last line is on screen when it ends, and nothing the terminal
 * already showed is wiped (no clear-screen or clear-scrollback sequence, the prompt and the
 * answer's start still in tmux's history).
 */
const SECTIONS = 24;
const END = 'kodo-stream-end-marker';
const TYPED = 'typed-while-streaming-0123456789';

/** A Markdown answer of headings, lists and code, cut into small pieces like a fast stream. */
function longAnswerPieces(): string[] {
  const pieces: string[] = [];
  for (let section = 1; section <= SECTIONS; section += 1) {
    pieces.push(`## Section ${section} heading\n\n`);
    for (let item = 0; item < 4; item += 1)
      pieces.push(`- item ${section}.${item} with \`code ${item}\` `, `and **bold** words\n`);
    pieces.push('\n```ts\n', `const value${section} = ${section};\n`, '```\n\n');
  }
  pieces.push(`Last line: ${END}\n`);
  return pieces;
}

let kodo: KodoTmux;
let recordDir: string;

beforeEach(() => {
  kodo = new KodoTmux();
  recordDir = mkdtempSync(join(tmpdir(), 'kodo-tmux-record-'));
});
afterEach(async () => {
  await kodo.close();
  rmSync(recordDir, { recursive: true, force: true });
});

describe.skipIf(!hasTmux())('kodo while a long answer streams, in a real terminal', () => {
  it('keeps typed keys in order, ends with the answer on screen and never clears the scrollback', async () => {
    // ~300 pieces 15 ms apart: the stream lasts several seconds, long enough to type into.
    const mock = kodo.serve(
      await startGeminiMock({ script: [{ chunks: geminiTextReply(longAnswerPieces()), delayMs: 15 }] }),
    );
    const recording = join(recordDir, 'terminal.bytes');
    const session = kodo.start([], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: mock.url },
      recordOutputTo: recording,
    });
    await session.waitFor(KODO_READY);
    session.type('stream a long answer');
    await session.waitFor('stream a long answer');
    session.press('Enter');
    await session.waitFor('Section 1 heading');

    // One key at a time while the answer streams, as a person types.
    for (const key of TYPED) {
      session.type(key);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The keys went in while the answer was still streaming (else the test proves nothing).
    const stillStreaming = await Promise.race([
      mock.requests[0]!.settled.then(() => false),
      new Promise((resolve) => setTimeout(() => resolve(true), 0)),
    ]);
    expect(stillStreaming).toBe(true);
    const streamedAll = await mock.requests[0]?.settled;
    expect(streamedAll).toBeDefined();

    // The answer's end is on the screen, and the input holds every key, in order.
    const screen = await session.waitFor(END, 15_000);
    expect(screen).toContain(END);
    await session.waitFor(TYPED, 15_000);

    // Nothing was wiped: the prompt and the first section are still in the scrollback, each
    // section exactly once and in order.
    const history = session.captureHistory();
    expect(history).toContain('> stream a long answer');
    const headings = [...history.matchAll(/Section (\d+) heading/g)].map((match) => Number(match[1]));
    expect(headings).toEqual(Array.from({ length: SECTIONS }, (_, index) => index + 1));
    const bytes = readFileSync(recording, 'latin1');
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).not.toContain('\u001b[2J');
    expect(bytes).not.toContain('\u001b[3J');
    expect(bytes).not.toContain('\u001bc');
  });
});
