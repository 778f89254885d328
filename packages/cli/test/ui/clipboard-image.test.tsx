import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClipboardImageReader } from '../../src/ui/input/clipboard-image';
import { finish, KEYS, renderApp, text } from './helpers';

/**
 * Issue R: Ctrl+V pastes a copied image. The clipboard tools are fake `xclip` and `wl-paste`
 * scripts on PATH that answer as the real ones do (a TARGETS / --list-types listing, then the
 * bytes of the asked type).
 */

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 9, 9]);
let root: string;
let bin: string;
let saved: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-clip-')));
  bin = join(root, 'bin');
  saved = join(root, 'saved');
  mkdirSync(bin);
  writeFileSync(join(root, 'image.png'), PNG);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function script(name: string, body: string): void {
  writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}

/** xclip with `types` on the clipboard; image/png gives the test image. Logs its arguments. */
function fakeXclip(types: string): void {
  script(
    'xclip',
    `echo "$@" >> "${root}/xclip.log"
case "$*" in
  *TARGETS*) printf '${types}\\n' ;;
  *image/png*) /bin/cat "${root}/image.png" ;;
  *) exit 1 ;;
esac`,
  );
}

function fakeWlPaste(types: string): void {
  script(
    'wl-paste',
    `case "$*" in
  *--list-types*) printf '${types}\\n' ;;
  *image/png*) /bin/cat "${root}/image.png" ;;
  *) exit 1 ;;
esac`,
  );
}

const reader = (env: NodeJS.ProcessEnv = {}) =>
  new ClipboardImageReader({ env: { PATH: bin, ...env }, platform: 'linux', dir: saved, now: () => 42 });

describe('images from the clipboard', () => {
  it('saves the image xclip gives as a PNG file and returns its path', async () => {
    fakeXclip('TARGETS\\nimage/png\\ntext/plain');
    const result = await reader().read();
    expect(result).toEqual({ path: join(saved, 'clipboard-42.png') });
    expect(readFileSync(join(saved, 'clipboard-42.png'))).toEqual(PNG);
  });

  it('asks wl-paste first under Wayland', async () => {
    fakeXclip('image/png');
    fakeWlPaste('image/png\\ntext/plain');
    expect(await reader({ WAYLAND_DISPLAY: 'wayland-0' }).read()).toEqual({
      path: join(saved, 'clipboard-42.png'),
    });
    expect(existsSync(join(root, 'xclip.log'))).toBe(false);
  });

  it('says so in one line when the clipboard holds text only', async () => {
    fakeXclip('TARGETS\\nUTF8_STRING\\ntext/plain');
    expect(await reader().read()).toEqual({ note: 'The clipboard has no image.' });
    expect(existsSync(saved)).toBe(false);
  });

  it('says which tool to install when there is none, and looks it up only once', async () => {
    const clipboard = reader();
    expect(await clipboard.read()).toEqual({
      note: 'Cannot read images from the clipboard: install wl-clipboard (Wayland) or xclip (X11).',
    });
    fakeXclip('image/png');
    // Probed lazily, once: a tool installed later needs a new session.
    expect('note' in (await clipboard.read())).toBe(true);
  });

  it('Ctrl+V in the prompt inserts the saved path, and sending attaches the image', async () => {
    fakeXclip('TARGETS\\nimage/png');
    const ui = renderApp({
      turns: [{ chunks: [text('A tiny PNG.'), finish()] }],
      appProps: { clipboard: reader() },
    });
    try {
      await vi.waitFor(() => expect(ui.frame()).toContain('Type your message'), { timeout: 10_000 });
      await ui.type('what is this');
      await ui.press('\u0016');
      await vi.waitFor(() => expect(ui.frame()).toContain('clipboard-42.png'), { timeout: 10_000 });
      await ui.press(KEYS.enter);
      await vi.waitFor(() => expect(ui.frame()).toContain('A tiny PNG.'), { timeout: 10_000 });
      const user = ui.generator.requests[0]!.contents.at(-1)!;
      expect(user.parts[0]!.text).toBe(`what is this ${join(saved, 'clipboard-42.png')} `);
      expect(user.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } });
    } finally {
      ui.cleanup();
    }
  });

  it('Ctrl+V with no image leaves the prompt as it was and shows one line', async () => {
    fakeXclip('TARGETS\\ntext/plain');
    const ui = renderApp({ appProps: { clipboard: reader() } });
    try {
      await vi.waitFor(() => expect(ui.frame()).toContain('Type your message'), { timeout: 10_000 });
      await ui.type('keep me');
      await ui.press('\u0016');
      await vi.waitFor(() => expect(ui.frame()).toContain('The clipboard has no image.'), {
        timeout: 10_000,
      });
      expect(ui.frame()).toContain('keep me');
    } finally {
      ui.cleanup();
    }
  });
});
