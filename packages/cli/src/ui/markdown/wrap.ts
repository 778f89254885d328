import stringWidth from 'string-width';

/**
 * Line breaking for Markdown text, done before Ink sees it. Ink wraps a text node that is wider
 * than its box with wrap-ansi, which measures the row again for every word: a 2,000-character
 * paragraph costs tens of milliseconds and megabytes of garbage, again on every repaint of a
 * streaming answer (its text changes each time, so Ink's cache never hits). Text whose lines
 * already fit is left alone by Ink, so the breaks are put in here, at the same places Ink's own
 * wrapping (`hard: true, trim: false`) would put them.
 */

/** Printable ASCII takes one column a character; anything else is measured like Ink does. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function columnsOf(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/**
 * Where one line (without '\n') breaks into rows of at most `columns`: the offsets before which a
 * line break goes. A word moves to the next row whole, the space before it staying at the end of
 * the row (invisible); a word wider than a row is cut at the row's end.
 */
function lineBreaks(line: string, columns: number): number[] {
  const breaks: number[] = [];
  let used = 0;
  let offset = 0;
  const words = line.split(' ');
  for (const [index, word] of words.entries()) {
    if (index > 0) {
      if (used >= columns) {
        breaks.push(offset);
        used = 0;
      }
      used += 1;
      offset += 1;
    }
    const wordColumns = columnsOf(word);
    if (wordColumns > columns) {
      // Start the long word on a fresh row when that does not cost an extra row.
      const breaksHere = 1 + Math.floor((wordColumns - (columns - used) - 1) / columns);
      const breaksOnNextRow = Math.floor((wordColumns - 1) / columns);
      if (breaksOnNextRow < breaksHere) {
        breaks.push(offset);
        used = 0;
      }
      used = cutWord(word, offset, columns, used, breaks);
    } else {
      if (used + wordColumns > columns && used > 0 && wordColumns > 0) {
        breaks.push(offset);
        used = 0;
      }
      used += wordColumns;
    }
    offset += word.length;
  }
  return breaks;
}

/** Cuts a word wider than a row, character by character; returns the columns used on the last row. */
function cutWord(word: string, start: number, columns: number, used: number, breaks: number[]): number {
  let offset = start;
  const characters = [...word];
  for (const [index, character] of characters.entries()) {
    const width = columnsOf(character);
    if (used + width > columns) {
      breaks.push(offset);
      used = 0;
    }
    used += width;
    offset += character.length;
    if (used === columns && index < characters.length - 1) {
      breaks.push(offset);
      used = 0;
    }
  }
  return used;
}

/**
 * The pieces of one block of text (the leaves of its inline formatting, in order) with line
 * breaks inserted so that no line of their concatenation is wider than `columns`. Returns the
 * same array when nothing needs breaking.
 */
export function wrapPieces(pieces: readonly string[], columns: number): readonly string[] {
  const text = pieces.join('');
  const breaks: number[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    if (columnsOf(line) > columns) {
      for (const offset of lineBreaks(line, columns)) breaks.push(lineStart + offset);
    }
    lineStart += line.length + 1;
  }
  if (breaks.length === 0) return pieces;
  const wrapped: string[] = [];
  let next = 0;
  let pieceStart = 0;
  for (const piece of pieces) {
    const pieceEnd = pieceStart + piece.length;
    let cut = 0;
    let out = '';
    while (next < breaks.length && breaks[next]! < pieceEnd) {
      const at = breaks[next]! - pieceStart;
      out += `${piece.slice(cut, at)}\n`;
      cut = at;
      next += 1;
    }
    wrapped.push(out === '' ? piece : out + piece.slice(cut));
    pieceStart = pieceEnd;
  }
  return wrapped;
}
