import { diffArrays } from 'diff';

/**
 * Line endings through an edit. The edit tools work on LF text; writing it back must not change
 * a byte the edit did not change, so a file that mixes CRLF and LF (and holds a lone CR) keeps
 * every ending outside the edited span. The span is what differs between the old and the new
 * text (their common start and end are kept as the file has them, byte for byte); inside it, a
 * line that replaces one keeps that line's ending, and a line the edit adds gets the file's
 * dominant one.
 */

export type LineEnding = 'lf' | 'crlf';

interface RawLine {
  text: string;
  /** `\r\n`, `\n`, or '' for a last line without one. */
  ending: string;
}

/** `text` cut after each ending; a last piece without one has ending '' (also when empty). */
function rawLines(text: string): RawLine[] {
  const lines: RawLine[] = [];
  const pattern = /\r?\n/g;
  let start = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    lines.push({ text: text.slice(start, match.index), ending: match[0] });
    start = match.index + match[0].length;
  }
  lines.push({ text: text.slice(start), ending: '' });
  return lines;
}

/** The ending most lines use (CRLF wins only with a majority; ties and no endings: LF). */
export function dominantLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text[i - 1] === '\r') crlf++;
    else lf++;
  }
  return crlf > lf ? 'crlf' : 'lf';
}

/**
 * `newLf` (LF line endings) written in the line endings of `originalRaw`: outside the span the
 * edit changed every byte is the original's; inside it, see `spanWithEndings`.
 */
export function restoreLineEndings(originalRaw: string, newLf: string, fallback: LineEnding): string {
  const eol = fallback === 'crlf' ? '\r\n' : '\n';
  // Fast path: nothing to map when the file uses one ending throughout.
  const hasCrlf = originalRaw.includes('\r\n');
  const hasLf = /(^|[^\r])\n/.test(originalRaw);
  if (!(hasCrlf && hasLf)) {
    const only = hasCrlf ? '\r\n' : hasLf ? '\n' : eol;
    return only === '\n' ? newLf : newLf.replace(/\n/g, only);
  }
  const oldLf = originalRaw.replace(/\r\n/g, '\n');
  const shorter = Math.min(oldLf.length, newLf.length);
  let prefix = 0;
  while (prefix < shorter && oldLf.charCodeAt(prefix) === newLf.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    oldLf.charCodeAt(oldLf.length - 1 - suffix) === newLf.charCodeAt(newLf.length - 1 - suffix)
  ) {
    suffix++;
  }
  const toRaw = rawOffsets(originalRaw);
  const spanStart = toRaw(prefix);
  const spanEnd = toRaw(oldLf.length - suffix);
  return (
    originalRaw.slice(0, spanStart) +
    spanWithEndings(originalRaw.slice(spanStart, spanEnd), newLf.slice(prefix, newLf.length - suffix), eol) +
    originalRaw.slice(spanEnd)
  );
}

/** Maps an offset in the LF form of `raw` (CRLF read as LF) to the same place in `raw`. */
function rawOffsets(raw: string): (lfOffset: number) => number {
  /** LF offsets of the newlines that are CRLF in `raw`, ascending. */
  const crlfAt: number[] = [];
  let removed = 0;
  for (let index = raw.indexOf('\r\n'); index >= 0; index = raw.indexOf('\r\n', index + 2)) {
    crlfAt.push(index - removed);
    removed++;
  }
  return (lfOffset) => {
    let low = 0;
    let high = crlfAt.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (crlfAt[middle]! < lfOffset) low = middle + 1;
      else high = middle;
    }
    return lfOffset + low;
  };
}

/**
 * The edited span's new text (LF) with endings: when it has as many line breaks as the old span,
 * each line replaces one and keeps its ending; otherwise lines the edit kept (found by a line
 * diff) keep theirs and the others get `eol`.
 */
function spanWithEndings(oldRaw: string, newLf: string, eol: string): string {
  const old = rawLines(oldRaw);
  const wanted = newLf.split('\n');
  if (old.length === wanted.length) {
    return wanted.map((text, index) => text + (index < old.length - 1 ? old[index]!.ending : '')).join('');
  }
  const out: string[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  for (const part of diffArrays(
    old.map((line) => line.text),
    wanted,
  )) {
    const count = part.count ?? part.value.length;
    if (part.removed) {
      oldIndex += count;
      continue;
    }
    for (let i = 0; i < count; i++) {
      const isLast = newIndex === wanted.length - 1;
      const ending = isLast ? '' : part.added ? eol : old[oldIndex + i]!.ending || eol;
      out.push(wanted[newIndex]! + ending);
      newIndex++;
    }
    if (!part.added) oldIndex += count;
  }
  return out.join('');
}
