import { createTwoFilesPatch, structuredPatch } from 'diff';

/**
 * Line diffs for the edit tools: the unified diff the person approves, the lines-added/removed
 * stat for session stats, and the "updated code" snippet the model reads after an edit.
 * All inputs are LF-normalised text.
 */

/** Lines of context around each change in the model's snippet. */
const SNIPPET_CONTEXT = 5;

/** `newFileName`: where the file goes when the change also moves it. */
export function unifiedDiff(
  fileName: string,
  oldText: string,
  newText: string,
  newFileName = fileName,
): string {
  return createTwoFilesPatch(fileName, newFileName, oldText, newText, 'Current', 'Proposed', { context: 3 });
}

export function diffStat(oldText: string, newText: string): { linesAdded: number; linesRemoved: number } {
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const hunk of structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: 0 })
    .hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) linesAdded++;
      else if (line.startsWith('-')) linesRemoved++;
    }
  }
  return { linesAdded, linesRemoved };
}

/**
 * The new text around each change, ±5 lines, with `...` where lines are left out. When nothing
 * changed the whole text is returned, so the model still sees the file as it now is.
 */
export function updatedSnippet(oldText: string, newText: string): string {
  const { hunks } = structuredPatch('a', 'b', oldText, newText, undefined, undefined, {
    context: SNIPPET_CONTEXT,
  });
  if (hunks.length === 0) return newText;
  const totalNewLines = splitForDiff(newText).length;
  const pieces: string[] = [];
  let nextLine = 1;
  for (const hunk of hunks) {
    if (hunk.newStart > nextLine) pieces.push('...');
    const lines = hunk.lines
      .filter((line) => line[0] === ' ' || line[0] === '+')
      .map((line) => line.slice(1));
    pieces.push(...lines);
    nextLine = hunk.newStart + hunk.newLines;
  }
  if (nextLine <= totalNewLines) pieces.push('...');
  return pieces.join('\n');
}

/** Lines as the diff library counts them: a trailing newline does not start another line. */
function splitForDiff(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
