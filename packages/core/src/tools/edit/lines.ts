/**
 * Line geometry for the line-based matching strategies (flexible, fuzzy). They compare whole lines
 * of the file with the lines of `old_string`, then turn the matched line windows back into
 * character ranges to replace. All text is LF-normalised.
 */

export interface LineIndex {
  /** The file's lines without their newline; a final newline does not start another line. */
  lines: string[];
  /** Offset of each line's first character in the text. */
  starts: number[];
  text: string;
}

export function indexLines(text: string): LineIndex {
  if (text === '') return { lines: [], starts: [], text };
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return { lines, starts, text };
}

/** `old_string` as lines; its final newline is remembered rather than kept as an empty line. */
export interface Block {
  lines: string[];
  endsWithNewline: boolean;
}

export function toBlock(text: string): Block {
  const endsWithNewline = text.endsWith('\n');
  const body = endsWithNewline ? text.slice(0, -1) : text;
  return { lines: body.split('\n'), endsWithNewline };
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The characters of `count` lines from `first`. With `includeNewline`, the newline after the last
 * line belongs to the range too (when there is one), as it would for an exact match of an
 * `old_string` ending in a newline.
 */
export function lineRange(
  index: LineIndex,
  window: { first: number; count: number },
  options: { includeNewline: boolean },
): { start: number; end: number } {
  const last = window.first + window.count - 1;
  const start = index.starts[window.first]!;
  let end = index.starts[last]! + index.lines[last]!.length;
  if (options.includeNewline && end < index.text.length) end += 1;
  return { start, end };
}

/** Applies non-overlapping edits, last first, so earlier offsets stay valid. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  }
  return result;
}

export function leadingWhitespace(line: string): string {
  let end = 0;
  while (end < line.length && (line[end] === ' ' || line[end] === '\t')) end++;
  return line.slice(0, end);
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}
