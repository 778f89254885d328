import { applyEdits, type Block, type LineIndex, lineRange } from './lines';
import { indentMapFromLines, reindent } from './reindent';
import type { MatchOutcome, MatchRequest, MatchStrategyName } from './types';

/**
 * Turns matched line windows (flexible and fuzzy strategies) into an outcome: the count, and unless
 * that is more than one without `allowMultiple`, the content with every window replaced by
 * `new_string` in the window's indentation.
 */
export function replaceWindows(
  strategy: MatchStrategyName,
  request: MatchRequest,
  file: LineIndex,
  block: Block,
  firstLines: readonly number[],
): MatchOutcome {
  const occurrences = firstLines.length;
  const count = block.lines.length;
  const lineRanges = firstLines.map((first) => ({ start: first + 1, end: first + count }));
  if (occurrences > 1 && !request.allowMultiple) return { strategy, occurrences, newContent: undefined };
  const edits = firstLines.map((first) => {
    const matched = file.lines.slice(first, first + count);
    const map = indentMapFromLines(block.lines, matched);
    const range = lineRange(file, { first, count }, { includeNewline: block.endsWithNewline });
    return { ...range, text: reindent(request.newString, map) };
  });
  return { strategy, occurrences, newContent: applyEdits(file.text, edits), lineRanges };
}
