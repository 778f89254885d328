import { describe, expect, it, vi } from 'vitest';
import { keymapFrom, loadKeymap } from '../../src/ui/keys/keybindings-file';
import { Keymap } from '../../src/ui/keys/keymap';
import { KEYS, renderApp } from './helpers';

/** Issue R: `~/.kodo/keybindings.json` rebinds the UI's actions, in Claude Code's file shape. */

const FILE = '/home/me/.kodo/keybindings.json';
const key = (over: Record<string, boolean> = {}) =>
  ({
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
    ...over,
  }) as Parameters<Keymap['actionFor']>[1];

describe('keybindings.json', () => {
  it('rebinds an action, moves a key from its default action and unbinds with null', () => {
    const { keymap, warnings } = keymapFrom(
      {
        bindings: [
          { context: 'Global', bindings: { 'ctrl+g': 'app:toggleYolo', 'ctrl+y': null } },
          { context: 'Chat', bindings: { 'ctrl+e': 'chat:historySearch', 'Alt+Shift+Up': 'chat:lineStart' } },
        ],
      },
      FILE,
    );
    expect(warnings).toEqual([]);
    expect(keymap.actionFor('g', key({ ctrl: true }))).toBe('app:toggleYolo');
    expect(keymap.actionFor('y', key({ ctrl: true }))).toBeUndefined();
    expect(keymap.actionFor('e', key({ ctrl: true }))).toBe('chat:historySearch');
    // Ctrl+R keeps its default too; Ctrl+E is no longer "end of line".
    expect(keymap.actionFor('r', key({ ctrl: true }))).toBe('chat:historySearch');
    expect(keymap.describe('chat:lineEnd')).toBe('unbound');
    expect(keymap.actionFor('', key({ meta: true, shift: true, upArrow: true }))).toBe('chat:lineStart');
    expect(keymap.describe('app:toggleYolo')).toBe('Ctrl+G');
  });

  it('skips each bad entry with one line naming it and keeps the rest', () => {
    const { keymap, warnings } = keymapFrom(
      {
        bindings: [
          {
            context: 'Chat',
            bindings: {
              'ctrl+x': 'chat:frobnicate',
              'hyper+q': 'chat:lineEnd',
              q: 'chat:lineEnd',
              'ctrl+c': 'chat:lineEnd',
              'ctrl+o': 'app:toggleYolo',
              'ctrl+b': 'chat:wordLeft',
            },
          },
          { context: 'Transcript', bindings: {} },
          'nonsense',
        ],
      },
      FILE,
    );
    expect(warnings).toEqual([
      `${FILE}: bindings[0] "ctrl+x": unknown action "chat:frobnicate"; ignored.`,
      `${FILE}: bindings[0] "hyper+q": unknown modifier "hyper"; ignored.`,
      `${FILE}: bindings[0] "q": a key without ctrl or alt would stop you typing it; ignored.`,
      `${FILE}: bindings[0] "ctrl+c": ctrl+c is reserved; ignored.`,
      `${FILE}: bindings[0] "ctrl+o": app:toggleYolo belongs to the Global context, not Chat; ignored.`,
      `${FILE}: bindings[1]: unknown context "Transcript" (kodo has Global, Chat); ignored.`,
      `${FILE}: bindings[2] needs a "bindings" object of keystroke → action; ignored.`,
    ]);
    expect(keymap.actionFor('b', key({ ctrl: true }))).toBe('chat:wordLeft');
  });

  it('keeps the defaults, with one line, for a file that is not JSON; none for no file', () => {
    const broken = loadKeymap(FILE, () => '{ "bindings": [');
    expect(broken.warnings).toHaveLength(1);
    expect(broken.warnings[0]).toMatch(
      /^\/home\/me\/\.kodo\/keybindings\.json is not valid JSON \(.*\); default keys used\.$/,
    );
    expect(broken.keymap.actionFor('y', key({ ctrl: true }))).toBe('app:toggleYolo');
    const missing = loadKeymap(FILE, () => {
      throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    });
    expect(missing.warnings).toEqual([]);
  });

  it('the UI follows the file: the new key toggles YOLO, the old one no longer does', async () => {
    const { keymap } = keymapFrom(
      { bindings: [{ context: 'Global', bindings: { 'ctrl+g': 'app:toggleYolo', 'ctrl+y': null } }] },
      FILE,
    );
    const ui = renderApp({ appProps: { keymap } });
    try {
      await vi.waitFor(() => expect(ui.frame()).toContain('Type your message'), { timeout: 10_000 });
      await ui.press(KEYS.ctrlY);
      await ui.press('\u0007');
      await vi.waitFor(() => expect(ui.frame()).toMatch(/· yolo ·/), { timeout: 10_000 });
      expect(ui.sessions[0]!.getApprovalMode()).toBe('yolo');
      await ui.press(KEYS.ctrlY);
      expect(ui.sessions[0]!.getApprovalMode()).toBe('yolo');
    } finally {
      ui.cleanup();
    }
  });

  it('/help lists the actions the file moved, with their keys and defaults', async () => {
    const { keymap } = keymapFrom(
      { bindings: [{ context: 'Global', bindings: { 'ctrl+g': 'app:toggleYolo', 'ctrl+y': null } }] },
      FILE,
    );
    const ui = renderApp({ appProps: { keymap } });
    try {
      await vi.waitFor(() => expect(ui.frame()).toContain('Type your message'), { timeout: 10_000 });
      await ui.type('/help');
      await ui.press(KEYS.enter);
      await vi.waitFor(() => expect(ui.frame()).toContain('Your key bindings'), { timeout: 10_000 });
      expect(ui.frame()).toMatch(/YOLO mode on \/ off \(app:toggleYolo\)\s*│?\s*Ctrl\+G\s*│?\s*Ctrl\+Y/);
    } finally {
      ui.cleanup();
    }
  });

  it('the default keymap is kodo’s documented keys', () => {
    const keymap = Keymap.defaults();
    expect(keymap.actionFor('', key({ shift: true, tab: true }))).toBe('app:cycleMode');
    expect(keymap.actionFor('v', key({ ctrl: true }))).toBe('chat:pasteImage');
    expect(keymap.actionFor('b', key({ meta: true }))).toBe('chat:wordLeft');
  });
});
