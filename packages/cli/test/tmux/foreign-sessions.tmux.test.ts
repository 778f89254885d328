import {
  FOREIGN_SESSION_FACTS as facts,
  type GeminiMock,
  geminiTextReply,
  hasTmux,
  installForeignSessions,
  KODO_READY,
  KodoTmux,
  startGeminiMock,
  type TmuxSession,
  type WireContent,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * Other tools' sessions in the interactive UI, in a real terminal (tmux): the `/resume` menu
 * offers them with kodo's, and the one picked (or named on `--resume`) is drawn and continued.
 */
let kodo: KodoTmux;
let mock: GeminiMock;
beforeEach(async () => {
  kodo = new KodoTmux({ env: { KODO_SANDBOX: 'false' } });
  installForeignSessions(kodo.home, kodo.workspace);
  mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Continuing here.') }] });
});
afterEach(async () => {
  kodo.close();
  await mock.close();
});

const env = () => ({ GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: mock.url });

async function typeLine(session: TmuxSession, text: string): Promise<void> {
  await session.waitFor(KODO_READY);
  session.type(text);
  await session.waitFor(text);
  session.press('Enter');
}

describe.skipIf(!hasTmux())("other tools' sessions in the UI", () => {
  it('/resume offers them marked by origin; the one picked is drawn and its history sent with the next prompt', async () => {
    const session = await kodo.startReady([], { env: env() });
    await typeLine(session, '/resume');
    const menu = await session.waitFor('[gemini]');
    // Newest first: Codex's, then Claude Code's, then Gemini CLI's.
    expect(menu.indexOf('3. [codex]')).toBeLessThan(menu.indexOf('2. [claude]'));
    expect(menu.indexOf('2. [claude]')).toBeLessThan(menu.indexOf('1. [gemini]'));
    // The menu can be drawn a moment before it takes keys: move until the highlight is on
    // Claude Code's session, and only then pick it.
    await session.waitFor(/› .*\[codex\]/);
    for (let tries = 0; tries < 5; tries++) {
      session.press('Down');
      const moved = await session.waitFor(/› .*\[claude\]/, 2_000).catch(() => undefined);
      if (moved) break;
    }
    session.press('Enter');
    const drawn = await session.waitFor(`Imported the Claude Code session ${facts.ids.claude}`);
    expect(drawn).toContain(facts.prompt);
    expect(drawn).toContain(facts.answer);
    // The Read call, drawn as kodo's read_file, ended well (the result says so).
    expect(drawn).toMatch(/✔ ReadFile .*notes\.txt.*· done/);
    await typeLine(session, 'continue please');
    await session.waitFor('Continuing here.');
    const contents = (mock.requests[0]!.body as { contents: WireContent[] }).contents;
    const sent = JSON.stringify(contents);
    expect(sent).toContain(facts.note);
    expect(sent).toContain(facts.answer);
    expect(sent).toContain('continue please');
  });

  it('kodo --resume <id> of a Gemini CLI session draws the conversation before the prompt', async () => {
    const session = kodo.start(['--resume', facts.ids.gemini], { env: env() });
    const screen = await session.waitFor(KODO_READY);
    expect(screen).toContain(facts.prompt);
    expect(screen).toContain(facts.answer);
  });
});
