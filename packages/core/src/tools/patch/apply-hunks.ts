import { FileLines, type MatchLevel } from './locate';
import type { Hunk } from './parse';

/**
 * An update's hunks applied to a file's text (LF-normalised), in order, each after the one before.
 *
 * - `@@ <line>` lines jump forward: each names a line of the file (the enclosing class or
 *   function) found after the previous one, and the hunk is sought after the last of them.
 *   `@@ -12,3 +12,4 @@` (a unified diff's numbers) names no line and is ignored.
 * - Without such a line, a hunk must fit exactly one place after the previous hunk; with one, the
 *   first place after it is meant (that is what the line is for).
 * - A hunk of `+` lines only goes after its `@@` line, or at the end of the file (always with
 *   `*** End of File`).
 * - Context lines keep the file's own text (a forgiving match must not rewrite them), `-` lines
 *   go, `+` lines come in as written. The file keeps or lacks its final newline as before.
 *
 * The result is the new text and a note for each hunk found only by forgiving comparison, or the
 * first hunk that does not fit and why.
 */
export type HunkOutcome =
  | { ok: true; text: string; notes: string[] }
  | { ok: false; hunk: number; reason: 'not_found' | 'ambiguous'; message: string };

interface Replacement {
  start: number;
  removed: number;
  lines: string[];
}

/** A unified diff's hunk header, as models sometimes write after `@@`. */
const LINE_NUMBERS = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

export function applyHunks(content: string, hunks: readonly Hunk[]): HunkOutcome {
  const hadFinalNewline = content.endsWith('\n');
  const file = new FileLines(
    content === '' ? [] : (hadFinalNewline ? content.slice(0, -1) : content).split('\n'),
  );
  const replacements: Replacement[] = [];
  const notes: string[] = [];
  let cursor = 0;
  for (const [index, hunk] of hunks.entries()) {
    const number = index + 1;
    const anchors = hunk.anchors
      .map((anchor) => anchor.trim())
      .filter((a) => a !== '' && !LINE_NUMBERS.test(a));
    for (const anchor of anchors) {
      const found = file.find([anchor], { from: cursor });
      if (!found)
        return { ok: false, hunk: number, reason: 'not_found', message: anchorMissing(anchor, cursor) };
      cursor = found.starts[0]! + 1;
    }
    const added = hunk.lines.filter((line) => line.kind === 'add').map((line) => line.text);
    if (added.length === hunk.lines.length) {
      const at = anchors.length > 0 && !hunk.endOfFile ? cursor : file.lines.length;
      replacements.push({ start: at, removed: 0, lines: added });
      cursor = at;
      continue;
    }
    const placed = place(file, hunk, { from: cursor, anchored: anchors.length > 0 });
    if (!placed.ok) return { ok: false, hunk: number, reason: placed.reason, message: placed.message };
    const { start, lines, level } = placed;
    if (level.forgiving) notes.push(`hunk ${number} matched at line ${start + 1} ${level.forgiving}`);
    replacements.push(replacementAt(file.lines, start, lines));
    cursor = start + lines.filter((line) => line.kind !== 'add').length;
  }
  const result = [...file.lines];
  for (const { start, removed, lines } of replacements.reverse()) result.splice(start, removed, ...lines);
  // An empty file that gets lines ends with a newline, as any text file written anew.
  const finalNewline = hadFinalNewline || (content === '' && result.length > 0);
  return { ok: true, text: result.join('\n') + (finalNewline && result.length > 0 ? '\n' : ''), notes };
}

type Placed =
  | { ok: true; start: number; lines: Hunk['lines']; level: MatchLevel }
  | { ok: false; reason: 'not_found' | 'ambiguous'; message: string };

/** Where the hunk's old lines (context and `-`) are; a trailing blank context line may be dropped. */
function place(file: FileLines, hunk: Hunk, options: { from: number; anchored: boolean }): Placed {
  let lines = hunk.lines;
  for (;;) {
    const old = lines.filter((line) => line.kind !== 'add').map((line) => line.text);
    const found = file.find(old, { from: options.from, atEnd: hunk.endOfFile });
    if (found) {
      if (found.starts.length > 1 && !options.anchored) {
        const where = found.starts.map((start) => start + 1).join(', ');
        return {
          ok: false,
          reason: 'ambiguous',
          message: `its context matches ${found.starts.length} places (lines ${where}); add context lines that tell them apart, or an "@@" line naming the enclosing function or class.`,
        };
      }
      return { ok: true, start: found.starts[0]!, lines, level: found.level };
    }
    // Models often end a hunk with a blank context line the file does not have there (the end
    // of the file, or one blank line too many): try once more without it.
    const last = lines.at(-1);
    if (last?.kind !== 'context' || last.text.trim() !== '') break;
    lines = lines.slice(0, -1);
  }
  const sought = hunk.lines
    .filter((line) => line.kind !== 'add')
    .slice(0, 3)
    .map((line) => `  ${line.text}`)
    .join('\n');
  const after = options.from > 0 ? ` after line ${options.from}` : '';
  const end = hunk.endOfFile ? ' at the end of the file' : '';
  return {
    ok: false,
    reason: 'not_found',
    message: `its context and "-" lines were not found${end}${after}. They start with:\n${sought}\nRead the file again and copy the lines exactly (" " context, "-" removed).`,
  };
}

/** The replacement for a hunk placed at `start`: context from the file, `-` gone, `+` as written. */
function replacementAt(fileLines: readonly string[], start: number, lines: Hunk['lines']): Replacement {
  const out: string[] = [];
  let at = start;
  for (const line of lines) {
    if (line.kind === 'context') out.push(fileLines[at++]!);
    else if (line.kind === 'remove') at++;
    else out.push(line.text);
  }
  return { start, removed: at - start, lines: out };
}

function anchorMissing(anchor: string, cursor: number): string {
  const after = cursor > 0 ? ` after line ${cursor}` : '';
  return `the line "@@ ${anchor}" names was not found in the file${after}. An "@@" line holds a line of the file (such as a function or class declaration), copied exactly.`;
}
