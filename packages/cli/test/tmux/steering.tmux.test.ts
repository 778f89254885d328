import { geminiChunk, hasTmux, KodoTmux, startGeminiMock } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** Steering in a real terminal: Enter while the model works, Tab to queue for after the turn. */
let kodo: KodoTmux;

beforeEach(() => {
  kodo = new KodoTmux();
});
afterEach(() => kodo.close());

const words = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) =>
    geminiChunk([{ text: `${prefix} ${index + 1}. ` }], { last: false }),
  );

interface Body {
  contents: { role: string; parts: { text?: string; functionResponse?: unknown }[] }[];
}

describe.skipIf(!hasTmux())('steering in a real terminal', () => {
  it('Enter while the model works steers the turn after the tool results; Tab queues for after it', async () => {
    const mock = kodo.serve(
      await startGeminiMock({
        script: [
          {
            chunks: [
              ...words(12, 'Look'),
              geminiChunk([{ functionCall: { name: 'list_directory', args: { dir_path: '.' } } }]),
            ],
            delayMs: 300,
          },
          { chunks: [geminiChunk([{ text: 'steered-answer' }])] },
          { chunks: [geminiChunk([{ text: 'queued-answer' }])] },
        ],
      }),
    );
    const session = await kodo.startReady([], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: mock.url },
    });
    session.type('look around');
    await session.waitFor('look around');
    session.press('Enter');
    await session.waitFor('Look 1.');
    session.type('later please');
    await session.waitFor('later please');
    session.press('Tab');
    await session.waitFor('Queued (1)');
    session.type('focus on src');
    await session.waitFor('focus on src');
    session.press('Enter');
    const waiting = await session.waitFor('Steering (1)');
    expect(waiting).toContain('↳ focus on src');
    await session.waitFor('queued-answer', 20_000);
    const screen = session.capture();
    expect(screen).not.toContain('Steering (');
    expect(screen.indexOf('> focus on src')).toBeLessThan(screen.indexOf('steered-answer'));
    expect(screen.indexOf('steered-answer')).toBeLessThan(screen.indexOf('> later please'));
    const steered = (mock.requests[1]!.body as Body).contents.at(-1)!;
    expect(steered.parts.map((part) => (part.functionResponse ? 'tool result' : part.text))).toEqual([
      'tool result',
      'focus on src',
    ]);
    const queued = (mock.requests[2]!.body as Body).contents.at(-1)!;
    expect(queued.parts.at(-1)?.text).toBe('later please');
  });
});
