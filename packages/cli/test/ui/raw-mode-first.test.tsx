import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FakeInput, FakeTerminal, mountOnFakeTerminal } from './fake-terminal';
import { ScriptedGenerator } from './helpers';

// Ink writes only final output when it thinks it runs in CI: hide the variables before it loads.
vi.hoisted(() => {
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
});

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-raw-mode-')));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('the terminal UI and raw mode', () => {
  it('takes the keys (raw mode) before it draws the prompt, and gives them back at exit', async () => {
    // Keys typed once the prompt shows must reach the UI: a terminal still in line mode echoes
    // them under the frame and holds them until Enter, which then arrives as pasted text (seen
    // in the tmux test on a busy machine: the prompt was typed and never sent).
    const events: string[] = [];
    const stdin = new FakeInput(events);
    const { done } = await mountOnFakeTerminal({
      generator: new ScriptedGenerator([]),
      workspace,
      stdout: new FakeTerminal(events),
      stdin,
    });
    const isReady = (event: string) => event.startsWith('write') && event.includes('Type your message');
    await vi.waitFor(() => expect(events.some(isReady)).toBe(true), { timeout: 10_000 });
    const firstReady = events.findIndex(isReady);
    const rawOn = events.indexOf('raw true');
    expect(rawOn).toBeGreaterThanOrEqual(0);
    expect(rawOn, `raw mode switched on at event ${rawOn}, the prompt drawn at ${firstReady}`).toBeLessThan(
      firstReady,
    );
    stdin.type('\u0004');
    await done;
    expect(events.lastIndexOf('raw false')).toBeGreaterThan(events.lastIndexOf('raw true'));
  });
});
