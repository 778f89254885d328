/**
 * Where `old_string` occurs in a file, and what the file becomes after the replacement.
 *
 * Matching is a list of strategies tried in order; the first that finds at least one occurrence
 * wins (reference §4). Only the exact strategy exists today; the flexible, token-regex and fuzzy
 * strategies plug into `STRATEGIES` later without changing the `replace` tool.
 * All text here is LF-normalised.
 */

export type MatchStrategyName = 'exact' | 'flexible' | 'regex' | 'fuzzy';

export interface MatchRequest {
  content: string;
  oldString: string;
  newString: string;
  allowMultiple: boolean;
}

export interface MatchOutcome {
  strategy: MatchStrategyName;
  /** How many occurrences the strategy found. */
  occurrences: number;
  /**
   * The replaced content, or undefined when the occurrences cannot be applied (more than one
   * without `allowMultiple`); the caller reports the count.
   */
  newContent: string | undefined;
  /** 1-based line ranges replaced, for strategies whose matches are approximate. */
  lineRanges?: Array<{ start: number; end: number }>;
}

/** A strategy returns undefined when it finds nothing, so the next one is tried. */
export type MatchStrategy = (request: MatchRequest) => MatchOutcome | undefined;

export const exactStrategy: MatchStrategy = (request) => {
  const occurrences = countOccurrences(request.content, request.oldString);
  if (occurrences === 0) return undefined;
  if (occurrences > 1 && !request.allowMultiple)
    return { strategy: 'exact', occurrences, newContent: undefined };
  // split/join instead of String.replace: `$&`, `$1`… in new_string must stay literal.
  const replaced = request.content.split(request.oldString).join(request.newString);
  return { strategy: 'exact', occurrences, newContent: replaced };
};

const STRATEGIES: readonly MatchStrategy[] = [exactStrategy];

/** Runs the strategies in order; zero occurrences when none matches. */
export function findMatches(
  request: MatchRequest,
  strategies: readonly MatchStrategy[] = STRATEGIES,
): MatchOutcome {
  for (const strategy of strategies) {
    const outcome = strategy(request);
    if (outcome && outcome.occurrences > 0) {
      if (outcome.newContent === undefined) return outcome;
      return { ...outcome, newContent: keepTrailingNewline(request.content, outcome.newContent) };
    }
  }
  return { strategy: 'exact', occurrences: 0, newContent: undefined };
}

/** Non-overlapping occurrences, the same ones split/join replaces. */
export function countOccurrences(content: string, search: string): number {
  if (search === '') return 0;
  let count = 0;
  for (let at = content.indexOf(search); at !== -1; at = content.indexOf(search, at + search.length)) count++;
  return count;
}

/** An edit never adds or removes the file's final newline (reference §4). */
function keepTrailingNewline(original: string, updated: string): string {
  const hadNewline = original.endsWith('\n');
  if (hadNewline && !updated.endsWith('\n') && updated !== '') return `${updated}\n`;
  if (!hadNewline && updated.endsWith('\n')) return updated.slice(0, -1);
  return updated;
}
