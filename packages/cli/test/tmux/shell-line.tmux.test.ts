import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiChunk, hasTmux, KODO_READY, KodoTmux, startGeminiMock, type TmuxSession } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * Shell mode in a real terminal (tmux): a line typed after `!` runs through core's runShellLine,
 * as a `!command` does over ACP, headless and `kodo mcp serve`; the terminal draws the call live
 * and Esc cancels it.
 */
let kodo: KodoTmux;

beforeEach(() => {
  kodo = new KodoTmux();
});
afterEach(() => kodo.close());

async function typeLine(session: TmuxSession, text: string): Promise<void> {
  session.type(text);
  await session.waitFor(text);
  session.press('Enter');
}

describe.skipIf(!hasTmux())('shell mode in a real terminal', () => {
  it('shows a command’s output, cancels one with Esc, and tells the model only of what ran', async () => {
    const mock = kodo.serve(
      await startGeminiMock({ script: [{ chunks: [geminiChunk([{ text: 'saw-the-output' }])] }] }),
    );
    const policy = join(kodo.home, 'no-touch.toml');
    writeFileSync(
      policy,
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "touch"\ndecision = "deny"\npriority = 500\n',
    );
    const session = await kodo.startReady(['--policy', policy], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: mock.url },
    });
    session.type('!');
    await session.waitFor('shell mode:');
    // The person typed it at kodo's own prompt: it runs at once, no approval dialog.
    await typeLine(session, 'echo from-the-bang');
    const ran = await session.waitFor(/✔ Shell echo from-the-bang · done/);
    expect(ran).not.toContain('Allow once');
    // A policy's deny holds for the person's own command too; it ran nothing.
    await typeLine(session, 'touch refused-file');
    await session.waitFor(/✖ Shell touch refused-file/);
    expect(existsSync(join(kodo.workspace, 'refused-file'))).toBe(false);
    await typeLine(session, 'sleep 30');
    await session.waitFor(/▶ Shell sleep 30 · running/);
    session.press('Escape');
    await session.waitFor(/⊘ Shell sleep 30 · cancelled/);
    // Esc on the empty line leaves shell mode; the next line is a prompt.
    session.press('Escape');
    await session.waitFor(KODO_READY);
    await typeLine(session, 'what did it print?');
    await session.waitFor('saw-the-output');
    const sent = JSON.stringify(mock.requests[0]?.body);
    expect(sent).toContain('I ran the following shell command:');
    expect(sent).toContain('from-the-bang');
    // The refused and the cancelled command ran nothing the model should hear of.
    expect(sent).not.toContain('touch refused-file');
    expect(sent).not.toContain('sleep 30');
    expect(mock.requests).toHaveLength(1);
  });
});
