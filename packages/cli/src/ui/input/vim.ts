import * as edit from './text-buffer';

/**
 * Vim keybindings for the input editor (`/vim`, setting `general.vimMode`): pure functions from
 * a key in normal mode to the next buffer and mode, so every binding is tested without a
 * terminal. Insert mode is the ordinary editor; Esc there enters normal mode.
 */
export type VimMode = 'insert' | 'normal';

export interface VimState {
  buffer: edit.TextBuffer;
  mode: VimMode;
  /** The first key of a two-key command (`d` of `dd`), waiting for the second. */
  pending: string;
}

/** What a normal-mode key did; `submit` asks the editor to send the text (Enter). */
export interface VimResult extends VimState {
  submit?: boolean;
  /** The key means nothing in normal mode: the editor may give it its usual meaning. */
  unhandled?: boolean;
}

/** Esc in insert mode: normal mode, the cursor one step back onto the last character typed, as vim does. */
export function enterNormal(buffer: edit.TextBuffer): VimState {
  const { column } = edit.cursorPosition(buffer);
  return { buffer: column > 0 ? edit.moveLeft(buffer) : buffer, mode: 'normal', pending: '' };
}

/** One key in normal mode. `key` is the character typed (`h`, `$`…), or `enter`. */
export function normalKey(state: VimState, key: string): VimResult {
  const { buffer } = state;
  const stay = (next: edit.TextBuffer): VimResult => ({
    buffer: clampToLine(next),
    mode: 'normal',
    pending: '',
  });
  const insertWith = (next: edit.TextBuffer): VimResult => ({ buffer: next, mode: 'insert', pending: '' });
  if (state.pending === 'd') {
    if (key === 'd') return stay(deleteLine(buffer));
    return { ...state, pending: '' };
  }
  switch (key) {
    case 'enter':
      return { ...state, pending: '', submit: true };
    case 'h':
      return stay(edit.cursorPosition(buffer).column > 0 ? edit.moveLeft(buffer) : buffer);
    case 'l':
      return stay(moveRightInLine(buffer));
    case 'j':
      return stay(edit.moveDown(buffer) ?? buffer);
    case 'k':
      return stay(edit.moveUp(buffer) ?? buffer);
    case 'w':
      return stay(wordForward(buffer));
    case 'b':
      return stay(edit.wordLeft(buffer));
    case '0':
      return stay(edit.lineStart(buffer));
    case '$':
      return stay(edit.lineEnd(buffer));
    case 'x':
      return stay(edit.deleteForward(atCharacter(buffer)));
    case 'd':
      return { ...state, pending: 'd' };
    case 'i':
      return insertWith(buffer);
    case 'a':
      return insertWith(atEndOfLine(buffer) ? buffer : edit.moveRight(buffer));
    case 'A':
      return insertWith(edit.lineEnd(buffer));
    case 'I':
      return insertWith(edit.lineStart(buffer));
    case 'o':
      return insertWith(edit.insert(edit.lineEnd(buffer), '\n'));
    case 'O': {
      const start = edit.lineStart(buffer);
      return insertWith(edit.moveLeft(edit.insert(start, '\n')));
    }
    default:
      return { ...state, pending: '', unhandled: true };
  }
}

function atEndOfLine(buffer: edit.TextBuffer): boolean {
  return edit.lineEnd(buffer).cursor === buffer.cursor;
}

/** In normal mode the cursor sits on a character, never past the end of a non-empty line. */
function clampToLine(buffer: edit.TextBuffer): edit.TextBuffer {
  const start = edit.lineStart(buffer).cursor;
  if (atEndOfLine(buffer) && buffer.cursor > start) return edit.moveLeft(buffer);
  return buffer;
}

function atCharacter(buffer: edit.TextBuffer): edit.TextBuffer {
  return clampToLine(buffer);
}

function moveRightInLine(buffer: edit.TextBuffer): edit.TextBuffer {
  const next = edit.moveRight(buffer);
  return atEndOfLine(next) ? buffer : next;
}

/** `w`: to the start of the next word (vim's "word": a run of non-blanks, simplified). */
function wordForward(buffer: edit.TextBuffer): edit.TextBuffer {
  const { text } = buffer;
  let index = buffer.cursor;
  while (index < text.length && !/\s/.test(text[index]!)) index += 1;
  while (index < text.length && /\s/.test(text[index]!)) index += 1;
  return { ...buffer, cursor: Math.min(index, text.length) };
}

/** `dd`: removes the cursor's line; the cursor goes to the start of the line that takes its place. */
function deleteLine(buffer: edit.TextBuffer): edit.TextBuffer {
  const lines = buffer.text.split('\n');
  const { row } = edit.cursorPosition(buffer);
  lines.splice(row, 1);
  const text = lines.join('\n');
  const target = Math.min(row, Math.max(0, lines.length - 1));
  let cursor = 0;
  for (let index = 0; index < target; index += 1) cursor += lines[index]!.length + 1;
  return { text, cursor: Math.min(cursor, text.length) };
}
