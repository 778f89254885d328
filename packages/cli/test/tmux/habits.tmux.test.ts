import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GeminiMock,
  geminiTextReply,
  hasTmux,
  KODO_READY,
  KodoTmux,
  startGeminiMock,
  type TmuxSession,
  type WireContent,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * Issue R, the habits people bring, in a real terminal (tmux) with the built kodo: a command
 * status line, a keybindings file, Gemini CLI custom themes in /theme, and Ctrl+V with an image
 * on the clipboard (a fake `xclip` on PATH).
 */
let kodo: KodoTmux;
let mock: GeminiMock;
beforeEach(async () => {
  kodo = new KodoTmux({ env: { KODO_SANDBOX: 'false' } });
  mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Seen it.') }] });
});
afterEach(async () => {
  kodo.close();
  await mock.close();
});

const env = (extra: Record<string, string> = {}) => ({
  GEMINI_API_KEY: 'test-key',
  GOOGLE_GEMINI_BASE_URL: mock.url,
  ...extra,
});
const settings = (value: unknown) => writeFileSync(join(kodo.home, 'settings.json'), JSON.stringify(value));

async function typeLine(session: TmuxSession, text: string): Promise<void> {
  await session.waitFor(KODO_READY);
  session.type(text);
  await session.waitFor(text);
  session.press('Enter');
}

describe.skipIf(!hasTmux())('habits in the terminal', () => {
  it('draws the status line command’s first line above the footer, and again when the mode changes', async () => {
    settings({
      statusLine: {
        type: 'command',
        command: `printf 'SL %s\\n' "$(grep -o '"approval_mode":"[a-z_]*"' | cut -d'"' -f4)"; echo second`,
      },
    });
    const session = await kodo.startReady([], { env: env() });
    const screen = await session.waitFor('SL default');
    expect(screen).not.toContain('second');
    const lines = screen.split('\n');
    expect(lines[lines.findIndex((line) => line.includes('SL default')) + 1]).toContain('gemini-2.5-pro');
    session.press('BTab');
    await session.waitFor('SL auto_edit');
    // Typing goes on while the command runs.
    session.type('still typing');
    await session.waitFor('still typing');
  });

  it('follows ~/.kodo/keybindings.json and names a bad entry in one line', async () => {
    writeFileSync(
      join(kodo.home, 'keybindings.json'),
      JSON.stringify({
        bindings: [{ context: 'Global', bindings: { 'ctrl+g': 'app:toggleYolo', 'ctrl+o': 'app:nope' } }],
      }),
    );
    const session = await kodo.startReady([], { env: env() });
    // The warning is one line, wrapped by the 100-column terminal.
    const screen = session.capture().replace(/\n/g, '');
    expect(screen).toContain('bindings[0] "ctrl+o": unknown action "app:nope"; ignored.');
    session.press('C-g');
    await session.waitFor(/· yolo ·/);
  });

  it('/theme lists a Gemini CLI custom theme and switches to it', async () => {
    settings({
      ui: {
        customThemes: {
          'Gruvbox Dark': {
            name: 'Gruvbox Dark',
            type: 'custom',
            text: { primary: '#ebdbb2', secondary: '#a89984', accent: '#d3869b' },
            status: { success: '#b8bb26', warning: '#fabd2f', error: '#fb4934' },
          },
        },
      },
    });
    // And a Gemini CLI extension's theme (its themes-example manifest).
    mkdirSync(join(kodo.home, 'extensions', 'themes-example'), { recursive: true });
    writeFileSync(
      join(kodo.home, 'extensions', 'themes-example', 'gemini-extension.json'),
      JSON.stringify({
        name: 'themes-example',
        version: '1.0.0',
        themes: [{ name: 'My-Awesome-Theme', type: 'custom', text: { primary: '#FF00FF' } }],
      }),
    );
    const session = await kodo.startReady([], { env: env() });
    await typeLine(session, '/theme');
    await session.waitFor('custom (Gemini CLI theme)');
    await session.waitFor('My-Awesome-Theme (themes-example)');
    await session.waitFor('Enter to choose');
    // From the current theme (dark, the first) Up wraps to the last, then the one before it.
    for (let tries = 0; tries < 8; tries++) {
      session.press('Up');
      const moved = await session.waitFor(/› Gruvbox Dark/, 1_000).catch(() => undefined);
      if (moved) break;
    }
    session.press('Enter');
    await session.waitFor('Theme: Gruvbox Dark');
  });

  it('Ctrl+V pastes the copied image and sends it with the prompt', async () => {
    const bin = join(kodo.home, 'bin');
    mkdirSync(bin);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 5, 5]);
    writeFileSync(join(kodo.home, 'copied.png'), png);
    writeFileSync(
      join(bin, 'xclip'),
      `#!/bin/sh\ncase "$*" in\n  *TARGETS*) printf 'TARGETS\\nimage/png\\n' ;;\n  *image/png*) /bin/cat "${join(kodo.home, 'copied.png')}" ;;\n  *) exit 1 ;;\nesac\n`,
    );
    chmodSync(join(bin, 'xclip'), 0o755);
    const session = await kodo.startReady([], {
      env: env({ PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` }),
    });
    session.type('what is in ');
    await session.waitFor('what is in');
    session.press('C-v');
    await session.waitFor('clipboard-');
    session.press('Enter');
    await session.waitFor('Seen it.');
    const contents = (mock.requests[0]!.body as { contents: WireContent[] }).contents;
    const parts = contents.at(-1)!.parts as { inlineData?: { mimeType: string; data: string } }[];
    expect(parts.some((part) => part.inlineData?.data === png.toString('base64'))).toBe(true);
  });

  it('kodo -w runs the UI in a new worktree; leaving with an unchanged one removes it', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: kodo.workspace, encoding: 'utf8' });
    writeFileSync(join(kodo.workspace, 'app.txt'), 'v1\n');
    git('init', '-q', '-b', 'main');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'start');
    const path = join(kodo.workspace, '.kodo', 'worktrees', 'ui-try');
    const session = await kodo.startReady(['-w', 'ui-try'], { env: env() });
    // The footer names the folder the session works in: the worktree.
    await session.waitFor('worktrees/ui-try');
    expect(existsSync(join(path, 'app.txt'))).toBe(true);
    session.press('C-d');
    const screen = (await session.waitFor('[exited 0]')).replace(/\n/g, '');
    expect(screen).toContain('had no changes and was removed (with branch worktree-ui-try).');
    expect(existsSync(path)).toBe(false);
    expect(git('branch', '--list', 'worktree-ui-try')).toBe('');
  });

  it('/<skill> sends the SKILL.md body as the activation, then the typed text', async () => {
    const dir = join(kodo.home, 'skills', 'release-notes');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      '---\nname: release-notes\ndescription: Drafts release notes\n---\nGroup the changes by feature; BREAKING first.\n',
    );
    const session = await kodo.startReady([], { env: env() });
    await typeLine(session, '/release-notes for v2');
    await session.waitFor('Seen it.');
    const contents = (mock.requests[0]!.body as { contents: WireContent[] }).contents;
    const texts = (contents.at(-1)!.parts as { text?: string }[]).map((part) => part.text ?? '');
    // The first turn opens with the environment context; the activation and the request follow.
    const activation = texts.findIndex((text) => text.includes('<activated_skill name="release-notes">'));
    expect(activation).toBeGreaterThanOrEqual(0);
    expect(texts[activation]).toContain('Group the changes by feature; BREAKING first.');
    expect(texts[activation + 1]).toBe('for v2');
  });
});
