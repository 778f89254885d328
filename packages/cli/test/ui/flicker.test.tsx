import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LIVE_THROTTLE_MS } from '../../src/ui/hooks/use-agent';
import { FakeInput, FakeTerminal, mountOnFakeTerminal } from './fake-terminal';
import { finish, ScriptedGenerator, sleep, text } from './helpers';

// Ink decides at import whether it runs "in CI" (then it writes only final output, which would
// make this measurement meaningless): hide the CI variables before anything imports it.
vi.hoisted(() => {
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
});

const TOKENS = 1200;
/** Ink wraps each repaint of a terminal in a synchronized update. */
const SYNC_START = '\u001b[?2026h';
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-flicker-')));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** ~4 characters a token; a line break every 12 tokens and a paragraph break every 5 lines. */
function tokenText(index: number): string {
  if (index % 60 === 59) return 'end.\n\n';
  if (index % 12 === 11) return 'word\n';
  return index % 7 === 0 ? '**bold** ' : 'tok ';
}

describe('flicker: bytes written while a long answer streams', () => {
  it('stay bounded per token and never clear the screen', async () => {
    const chunks = Array.from({ length: TOKENS }, (_, i) => text(tokenText(i)));
    const generator = new ScriptedGenerator([{ chunks: [...chunks, finish()], delayMs: 2 }]);
    const stdout = new FakeTerminal();
    const stdin = new FakeInput();
    const { session, done } = await mountOnFakeTerminal({
      generator,
      workspace,
      stdout,
      stdin,
      initialPrompt: 'write a long answer',
    });
    const started = performance.now();
    await vi.waitFor(() => expect(generator.requests).toHaveLength(1), { timeout: 5_000 });
    // Wait until the whole answer is in (the last paragraph lands in the static history).
    await vi.waitFor(() => expect(stdout.text()).toContain('Type your message'), {
      timeout: 20_000,
    });
    const streamed = () => stdout.text();
    await vi.waitFor(() => expect(streamed().split('end.').length - 1).toBeGreaterThanOrEqual(TOKENS / 60), {
      timeout: 30_000,
      interval: 50,
    });
    await sleep(200);
    const ended = performance.now();
    const all = streamed();
    const total = stdout.bytesBetween(started, ended);
    const perToken = total / TOKENS;
    // Bytes of the first and last quarter of the stream: a full redraw of the growing answer
    // would make the last quarter far more expensive than the first.
    const span = ended - started;
    const first = stdout.bytesBetween(started, started + span / 4);
    const last = stdout.bytesBetween(ended - span / 4, ended);
    // The figures go into the failure message only: a passing run prints nothing.
    const figures = `${TOKENS} tokens, ${all.length} chars of answer+UI; ${total} bytes written; first quarter ${first} B, last quarter ${last} B`;
    expect(all).not.toContain('\u001b[2J');
    expect(all).not.toContain('\u001b[3J');
    expect(perToken, figures).toBeLessThan(600);
    expect(last, figures).toBeLessThan(first * 2.5 + 20_000);
    // Every repaint redraws the whole live region and leaves megabytes of garbage behind: there
    // is one per throttled flush while the answer streams (and a few as the turn ends), and the
    // spinner and the clock ride along instead of repainting on their own timers.
    const frames = stdout.writes.filter((w) => w.text === SYNC_START).length;
    const allowed = span / LIVE_THROTTLE_MS + 5;
    expect(frames, `${frames} repaints in ${span.toFixed(0)} ms`).toBeLessThanOrEqual(allowed);
    stdin.type('\u0004');
    expect(await done).toBe(session.id);
  });
});
