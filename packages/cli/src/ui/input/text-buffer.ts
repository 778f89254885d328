/**
 * The input editor's text and cursor as an immutable value, with the editing operations the
 * prompt offers. Pure functions, so every key binding is tested without a terminal. The cursor is
 * an offset into the text; surrogate pairs are stepped over as one character.
 */
export interface TextBuffer {
  readonly text: string;
  readonly cursor: number;
}

export const EMPTY_BUFFER: TextBuffer = { text: '', cursor: 0 };

export function bufferOf(text: string): TextBuffer {
  return { text, cursor: text.length };
}

export function insert(buffer: TextBuffer, value: string): TextBuffer {
  const { text, cursor } = buffer;
  return { text: text.slice(0, cursor) + value + text.slice(cursor), cursor: cursor + value.length };
}

export function backspace(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor === 0) return buffer;
  const start = previousCharStart(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

export function deleteForward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor >= buffer.text.length) return buffer;
  const end = nextCharEnd(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

export function moveLeft(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: previousCharStart(buffer.text, buffer.cursor) };
}

export function moveRight(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: nextCharEnd(buffer.text, buffer.cursor) };
}

export function lineStart(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: buffer.text.lastIndexOf('\n', buffer.cursor - 1) + 1 };
}

export function lineEnd(buffer: TextBuffer): TextBuffer {
  const end = buffer.text.indexOf('\n', buffer.cursor);
  return { ...buffer, cursor: end === -1 ? buffer.text.length : end };
}

/** Cursor row and column (in UTF-16 units) within its line. */
export function cursorPosition(buffer: TextBuffer): { row: number; column: number } {
  const before = buffer.text.slice(0, buffer.cursor);
  const row = before.split('\n').length - 1;
  return { row, column: buffer.cursor - (before.lastIndexOf('\n') + 1) };
}

export function lineCount(buffer: TextBuffer): number {
  return buffer.text.split('\n').length;
}

/** Up one line, keeping the column; undefined on the first line (the caller may go to history). */
export function moveUp(buffer: TextBuffer): TextBuffer | undefined {
  const { row, column } = cursorPosition(buffer);
  if (row === 0) return undefined;
  return toRowColumn(buffer, row - 1, column);
}

/** Down one line, keeping the column; undefined on the last line. */
export function moveDown(buffer: TextBuffer): TextBuffer | undefined {
  const { row, column } = cursorPosition(buffer);
  if (row >= lineCount(buffer) - 1) return undefined;
  return toRowColumn(buffer, row + 1, column);
}

function toRowColumn(buffer: TextBuffer, row: number, column: number): TextBuffer {
  const lines = buffer.text.split('\n');
  let offset = 0;
  for (let index = 0; index < row; index += 1) offset += lines[index]!.length + 1;
  return { ...buffer, cursor: offset + Math.min(column, lines[row]!.length) };
}

/** Ctrl-U: delete from the start of the line to the cursor. */
export function killToLineStart(buffer: TextBuffer): TextBuffer {
  const start = lineStart(buffer).cursor;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Ctrl-K: delete from the cursor to the end of the line. */
export function killToLineEnd(buffer: TextBuffer): TextBuffer {
  const end = lineEnd(buffer).cursor;
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

/** Ctrl-W / Alt-Backspace: delete the word before the cursor (and the spaces after it). */
export function deleteWordLeft(buffer: TextBuffer): TextBuffer {
  const start = wordLeft(buffer).cursor;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

export function wordLeft(buffer: TextBuffer): TextBuffer {
  let index = buffer.cursor;
  while (index > 0 && /\s/.test(buffer.text[index - 1]!)) index -= 1;
  while (index > 0 && !/\s/.test(buffer.text[index - 1]!)) index -= 1;
  return { ...buffer, cursor: index };
}

export function wordRight(buffer: TextBuffer): TextBuffer {
  let index = buffer.cursor;
  const { text } = buffer;
  while (index < text.length && /\s/.test(text[index]!)) index += 1;
  while (index < text.length && !/\s/.test(text[index]!)) index += 1;
  return { ...buffer, cursor: index };
}

/** Replaces `length` characters before the cursor with `value` (completion). */
export function replaceBeforeCursor(buffer: TextBuffer, length: number, value: string): TextBuffer {
  const start = Math.max(0, buffer.cursor - length);
  return {
    text: buffer.text.slice(0, start) + value + buffer.text.slice(buffer.cursor),
    cursor: start + value.length,
  };
}

function previousCharStart(text: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const low = text.charCodeAt(cursor - 1);
  if (cursor >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(cursor - 2);
    if (high >= 0xd800 && high <= 0xdbff) return cursor - 2;
  }
  return cursor - 1;
}

function nextCharEnd(text: string, cursor: number): number {
  if (cursor >= text.length) return text.length;
  const high = text.charCodeAt(cursor);
  if (high >= 0xd800 && high <= 0xdbff && cursor + 1 < text.length) return cursor + 2;
  return cursor + 1;
}
