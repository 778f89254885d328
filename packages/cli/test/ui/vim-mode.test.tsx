import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtinCommands } from '../../src/ui/commands/registry';
import { InputPrompt, type SubmitMode } from '../../src/ui/components/input-prompt';
import { bufferOf, type TextBuffer } from '../../src/ui/input/text-buffer';
import { enterNormal, normalKey, type VimState } from '../../src/ui/input/vim';
import { finish, KEYS, renderApp, sleep, text } from './helpers';

const until = (check: () => void) => vi.waitFor(check, { timeout: 3_000, interval: 10 });

/** Runs normal-mode keys from a buffer whose cursor is at `|`. */
function keys(start: string, sequence: string[]): VimState & { shown: string } {
  const cursor = start.indexOf('|');
  let state: VimState = {
    buffer: { text: start.replace('|', ''), cursor },
    mode: 'normal',
    pending: '',
  };
  for (const key of sequence) {
    const next = normalKey(state, key);
    state = { buffer: next.buffer, mode: next.mode, pending: next.pending };
  }
  return { ...state, shown: show(state.buffer) };
}

const show = (buffer: TextBuffer) =>
  `${buffer.text.slice(0, buffer.cursor)}|${buffer.text.slice(buffer.cursor)}`;

describe('vim normal mode (pure)', () => {
  it('moves with h l 0 $ w b, staying on a character of the line', () => {
    expect(keys('hello wo|rld', ['h']).shown).toBe('hello w|orld');
    expect(keys('hello wo|rld', ['l', 'l', 'l']).shown).toBe('hello worl|d');
    expect(keys('hello wo|rld', ['0']).shown).toBe('|hello world');
    expect(keys('hello wo|rld', ['$']).shown).toBe('hello worl|d');
    expect(keys('|one two three', ['w', 'w']).shown).toBe('one two |three');
    expect(keys('one two thr|ee', ['b', 'b']).shown).toBe('one |two three');
    expect(keys('|abc', ['h']).shown).toBe('|abc');
  });

  it('moves between lines with j and k, keeping the column', () => {
    expect(keys('ab|cd\nefgh', ['j']).shown).toBe('abcd\nef|gh');
    expect(keys('abcd\nef|gh', ['k']).shown).toBe('ab|cd\nefgh');
    expect(keys('abcd\nx|', ['k']).shown).toBe('a|bcd\nx');
  });

  it('deletes with x and dd', () => {
    expect(keys('ab|cd', ['x']).shown).toBe('ab|d');
    expect(keys('abc|', ['x']).shown).toBe('a|b');
    expect(keys('one\ntw|o\nthree', ['d', 'd']).shown).toBe('one\n|three');
    expect(keys('one\ntw|o', ['d', 'd']).shown).toBe('|one');
    // `d` then something else is no command: nothing changes.
    const cancelled = keys('ab|c', ['d', 'l']);
    expect(cancelled.shown).toBe('ab|c');
    expect(cancelled.pending).toBe('');
  });

  it('enters insert mode with i a A I o O at the right place', () => {
    expect(keys('ab|cd', ['i'])).toMatchObject({ mode: 'insert', shown: 'ab|cd' });
    expect(keys('ab|cd', ['a'])).toMatchObject({ mode: 'insert', shown: 'abc|d' });
    expect(keys('ab|cd', ['A'])).toMatchObject({ mode: 'insert', shown: 'abcd|' });
    expect(keys('ab|cd', ['I'])).toMatchObject({ mode: 'insert', shown: '|abcd' });
    expect(keys('ab|cd\nef', ['o'])).toMatchObject({ mode: 'insert', shown: 'abcd\n|\nef' });
    expect(keys('abcd\ne|f', ['O'])).toMatchObject({ mode: 'insert', shown: 'abcd\n|\nef' });
  });

  it('Esc from insert mode steps back onto the last character typed, as vim does', () => {
    expect(show(enterNormal(bufferOf('abc')).buffer)).toBe('ab|c');
    expect(show(enterNormal({ text: 'ab\ncd', cursor: 3 }).buffer)).toBe('ab\n|cd');
  });

  it('asks for a submit on Enter and leaves unknown keys unhandled', () => {
    const state: VimState = { buffer: bufferOf('x'), mode: 'normal', pending: '' };
    expect(normalKey(state, 'enter').submit).toBe(true);
    expect(normalKey(state, 'Z').unhandled).toBe(true);
  });
});

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

function prompt(vimMode: boolean) {
  const submitted: [string, SubmitMode][] = [];
  const instance = render(
    <InputPrompt
      commands={builtinCommands()}
      listFiles={async () => []}
      history={[]}
      width={80}
      isActive
      busy={false}
      vimMode={vimMode}
      onSubmit={(value, mode) => {
        submitted.push([value, mode]);
        return true;
      }}
      onCancel={() => undefined}
      onInterrupt={() => undefined}
      onExit={() => undefined}
    />,
  );
  unmount = instance.unmount;
  const press = async (...sequence: string[]) => {
    for (const key of sequence) {
      instance.stdin.write(key);
      await sleep(key === KEYS.escape ? 60 : 10);
    }
  };
  return { submitted, press, frame: () => instance.lastFrame() ?? '' };
}

describe('InputPrompt with vim keybindings', () => {
  it('edits in normal mode and shows the mode', async () => {
    const ui = prompt(true);
    expect(ui.frame()).toContain('[INSERT]');
    await ui.press('hello wrld', KEYS.escape);
    await until(() => expect(ui.frame()).toContain('[NORMAL]'));
    // Letters are commands now, not text.
    await ui.press('b', 'l', 'i', 'o', KEYS.escape, '0', 'x', 'A', '!', KEYS.escape);
    await until(() => expect(ui.frame()).toContain('ello world!'));
    expect(ui.frame()).toContain('[NORMAL]');
    await ui.press(KEYS.enter);
    expect(ui.submitted).toEqual([['ello world!', 'prompt']]);
    // After sending, the next line starts in insert mode.
    await until(() => expect(ui.frame()).toContain('[INSERT]'));
  });

  it('dd clears a line and o opens one below', async () => {
    const ui = prompt(true);
    await ui.press('first', KEYS.escape, 'o', 'second', KEYS.escape, 'k', 'd', 'd', KEYS.enter);
    expect(ui.submitted).toEqual([['second', 'prompt']]);
  });

  it('without vim mode, Esc and letters keep their usual meaning', async () => {
    const ui = prompt(false);
    await ui.press('abc', KEYS.escape, 'x', KEYS.enter);
    expect(ui.frame()).not.toContain('[NORMAL]');
    expect(ui.submitted).toEqual([['abcx', 'prompt']]);
  });
});

describe('/vim', () => {
  let home: string | undefined;
  afterEach(() => {
    if (home) rmSync(home, { recursive: true, force: true });
    home = undefined;
  });

  it('toggles vim keybindings and saves general.vimMode in the user settings', async () => {
    home = mkdtempSync(join(tmpdir(), 'kodo-vim-home-'));
    const ui = renderApp({ env: { KODO_HOME: home }, turns: [{ chunks: [text('ok'), finish()] }] });
    unmount = ui.cleanup;
    await ui.type('/vim');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Vim mode on'));
    expect(ui.frame()).toContain('[INSERT]');
    const settingsPath = join(home, 'settings.json');
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual({ general: { vimMode: true } });
    await ui.type('/vim');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Vim mode off'));
    expect(ui.frame()).not.toContain('[INSERT]');
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual({ general: { vimMode: false } });
  });

  it('starts in vim mode when general.vimMode is set', async () => {
    const ui = renderApp({ settings: { general: { vimMode: true } } });
    unmount = ui.cleanup;
    await until(() => expect(ui.frame()).toContain('[INSERT]'));
    await ui.press('ab', KEYS.escape);
    await until(() => expect(ui.frame()).toContain('[NORMAL]'));
  });
});
