/**
 * How the interactive UI's frames reach the terminal (Ink's `log`, replaced through the
 * `createLog` option our patch of Ink adds; see docs/architecture.md, "Drawing frames").
 *
 * Ink's own writer erases the whole live region and writes it again on every frame, and when
 * something becomes final (`<Static>`) it erases the region, writes the final text and writes the
 * region again. While an answer streams, that is the input box, the footer and the answer's tail
 * rewritten 20 times a second: five times the answer's bytes reach the terminal. This writer
 * sends only what changed:
 * - a frame rewrites just the rows that differ from the previous frame;
 * - final text is inserted above the live region (scroll the screen up by its height, insert that
 *   many blank rows above the region, write the text into them), so the region's rows stay where
 *   they are on screen and the next frame is again a diff.
 * Rows are erased before they are written, never after: erasing to the end of a row whose last
 * column was just written would erase that column.
 */

import { compactStyles } from './compact-styles';

const ESC = '\u001b[';
/** Clears the screen and the scrollback, cursor home; whoever writes it calls `forget()`. */
export const CLEAR_SCREEN = `${ESC}2J${ESC}3J${ESC}H`;
const HIDE_CURSOR = `${ESC}?25l`;
const SHOW_CURSOR = `${ESC}?25h`;
const ERASE_ROW = `${ESC}2K`;
const ERASE_BELOW = `${ESC}J`;

/** The part of a terminal stream the writer needs (a TTY write stream, or a test double). */
export interface FrameStream {
  write(data: string): unknown;
  /** Rows on screen; final text taller than the screen is written the plain way. */
  readonly rows?: number;
}

/** Where Ink wants the terminal's cursor shown, relative to the frame's first row. */
export interface CursorPosition {
  x: number;
  y: number;
}

/** The interface Ink 6.8 uses for its `log` (log-update), plus `insertStatic`. */
export interface FrameLog {
  (frame: string): boolean;
  clear(): void;
  done(): void;
  sync(frame: string): void;
  setCursorPosition(position: CursorPosition | undefined): void;
  isCursorDirty(): boolean;
  willRender(frame: string): boolean;
  /** Writes final text above the live region, then draws `frame` as the new region. */
  insertStatic(text: string, frame: string): void;
  /** The screen was cleared by someone else (cursor home): the next frame is drawn in full. */
  forget(): void;
}

const up = (rows: number) => (rows > 0 ? `${ESC}${rows}A` : '');
const down = (rows: number) => (rows > 0 ? `${ESC}${rows}B` : '');
const toColumn = (column: number) => (column > 0 ? `${ESC}${column + 1}G` : '\r');

/** Where Ink leaves the cursor after `frame`: below its last row, or on it when it fills the screen. */
const endRow = (frame: string, rows: number) => (frame.endsWith('\n') ? rows : Math.max(0, rows - 1));

/** The rows a frame occupies (Ink ends a frame with a newline unless it fills the screen). */
function rowsOf(frame: string): string[] {
  const rows = frame.split('\n');
  if (frame.endsWith('\n')) rows.pop();
  return rows.map(compactStyles);
}

export function createFrameWriter(stream: FrameStream): FrameLog {
  /** The rows of the region on screen now. */
  let shown: string[] = [];
  let shownFrame = '';
  /** The row the cursor is on, counted from the region's first row. */
  let cursorRow = 0;
  /** The lowest row (same count) that exists on screen: below it, rows are made by newlines. */
  let bottomRow = 0;
  let cursorHidden = false;
  let requested: CursorPosition | undefined;
  let cursorDirty = false;
  let placed: CursorPosition | undefined;

  const sameCursor = (a: CursorPosition | undefined, b: CursorPosition | undefined) =>
    a === b || (a !== undefined && b !== undefined && a.x === b.x && a.y === b.y);
  const activeCursor = () => (cursorDirty ? requested : undefined);

  /** Moves to the start of `row`; rows below the lowest one on screen are made by newlines. */
  const moveTo = (row: number): string => {
    let out: string;
    if (row <= bottomRow) out = `${up(cursorRow - row)}${down(row - cursorRow)}\r`;
    else {
      out = `${down(bottomRow - cursorRow)}\r${'\n'.repeat(row - bottomRow)}`;
      bottomRow = row;
    }
    cursorRow = row;
    return out;
  };

  /**
   * Opens `count` blank rows above row `at` of the region, pushing the rows from `at` down:
   * newlines from the row below the region scroll the screen when the region is at its bottom
   * (or move down into blank rows), so the region's first row is then `count` rows higher; the
   * rows inserted there push it back to where it was on screen. The cursor ends on row `at`.
   */
  const openRows = (at: number, count: number): string => {
    const height = shown.length;
    const out = `${moveTo(height)}${'\n'.repeat(count)}${up(height + count - at)}\r${ESC}${count}L`;
    cursorRow = at;
    bottomRow = height + count;
    return out;
  };

  /**
   * When the region grows or shrinks, rows below the change (the input box, the footer) would
   * land on other screen rows and be written again; the terminal moves them instead: rows are
   * inserted or deleted just above the rows both frames end with. Returns what the screen then
   * shows, row by row.
   */
  const shiftRows = (next: string[]): { bytes: string; screen: string[] } => {
    const grow = next.length - shown.length;
    const same = { bytes: '', screen: shown };
    if (grow === 0 || shown.length === 0 || !shownFrame.endsWith('\n')) return same;
    let prefix = 0;
    while (prefix < Math.min(shown.length, next.length) && shown[prefix] === next[prefix]) prefix += 1;
    let suffix = 0;
    const most = Math.min(shown.length, next.length) - prefix;
    while (suffix < most && shown[shown.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix += 1;
    if (suffix === 0) return same;
    const at = shown.length - suffix + Math.min(0, grow);
    if (grow < 0) {
      const bytes = `${moveTo(at)}${ESC}${-grow}M`;
      return { bytes, screen: [...shown.slice(0, at), ...shown.slice(at - grow)] };
    }
    if (shown.length + grow + 1 > (stream.rows ?? 0)) return same;
    const bytes = openRows(at, grow);
    return { bytes, screen: [...shown.slice(0, at), ...Array<string>(grow).fill(''), ...shown.slice(at)] };
  };

  /** The bytes that turn the region on screen into `frame`. */
  const diff = (frame: string): string => {
    const next = rowsOf(frame);
    let out = cursorHidden ? '' : HIDE_CURSOR;
    cursorHidden = true;
    const { bytes, screen } = shiftRows(next);
    out += bytes;
    const existing = screen.length;
    for (let row = 0; row < next.length; row += 1) {
      if (row < existing && next[row] === screen[row]) continue;
      out += moveTo(row) + ERASE_ROW + next[row];
    }
    if (next.length < existing) out += moveTo(next.length) + ERASE_BELOW;
    // Where Ink leaves the cursor: below the last row, or on it when the frame fills the screen.
    out += moveTo(endRow(frame, next.length));
    shown = next;
    shownFrame = frame;
    const cursor = activeCursor();
    if (cursor) {
      out += `${SHOW_CURSOR}${up(cursorRow - cursor.y)}${down(cursor.y - cursorRow)}${toColumn(cursor.x)}`;
      cursorRow = cursor.y;
    }
    placed = cursor ? { ...cursor } : undefined;
    cursorDirty = false;
    return out;
  };

  /** The cursor back where Ink leaves it, hiding a cursor Ink had asked to show. */
  const settle = (): string => {
    if (!placed) return '';
    placed = undefined;
    return HIDE_CURSOR + moveTo(endRow(shownFrame, shown.length));
  };

  /** Nothing of the region is on screen any more; the cursor is where it starts. */
  const forgetRegion = () => {
    shown = [];
    shownFrame = '';
    cursorRow = 0;
    bottomRow = 0;
    placed = undefined;
  };

  const erase = (): string => {
    const out = `${settle()}${moveTo(0)}${ERASE_BELOW}`;
    forgetRegion();
    return out;
  };

  const log = ((frame: string): boolean => {
    if (frame === shownFrame && sameCursor(activeCursor(), placed)) {
      cursorDirty = false;
      return false;
    }
    stream.write(settle() + diff(frame));
    return true;
  }) as FrameLog;

  log.clear = () => {
    stream.write(erase());
  };

  log.forget = forgetRegion;

  log.done = () => {
    forgetRegion();
    if (cursorHidden) stream.write(SHOW_CURSOR);
    cursorHidden = false;
  };

  log.sync = (frame: string) => {
    shown = rowsOf(frame);
    shownFrame = frame;
    cursorRow = endRow(frame, shown.length);
    bottomRow = cursorRow;
    placed = undefined;
    cursorDirty = false;
  };

  log.setCursorPosition = (position) => {
    requested = position;
    cursorDirty = true;
  };
  log.isCursorDirty = () => cursorDirty;
  log.willRender = (frame: string) => frame !== shownFrame || !sameCursor(activeCursor(), placed);

  log.insertStatic = (text: string, frame: string) => {
    const lines = text === '' ? [] : rowsOf(text.endsWith('\n') ? text : `${text}\n`);
    const height = shown.length;
    // Rows the text can take at once: the region and the row below it stay on screen.
    const room = (stream.rows ?? 0) - height - 1;
    // Inserting needs a region that ends with a newline (the cursor below it) and room for at
    // least a row; otherwise erase, write the text and draw the region again, as Ink does.
    if (height === 0 || lines.length === 0 || !shownFrame.endsWith('\n') || room < 1) {
      const written = lines.length > 0 ? `${lines.join('\r\n')}\r\n` : '';
      stream.write(`${erase()}${written}${diff(frame)}`);
      return;
    }
    let out = settle();
    // Text taller than the room goes in a screenful at a time; after each part the region is
    // where it was on screen and its first row is row 0 again.
    for (let at = 0; at < lines.length; at += room) {
      const part = lines.slice(at, at + room);
      out += openRows(0, part.length);
      for (const line of part) out += `${line}\n`;
      cursorRow = 0;
      bottomRow = height;
    }
    stream.write(out + diff(frame));
  };

  return log;
}
