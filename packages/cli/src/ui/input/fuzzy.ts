/**
 * Fuzzy matching for `@path` completion: the query's characters must appear in order in the
 * candidate. Matches score higher when characters are consecutive, start a path segment or a
 * word, and when they fall in the file name rather than the directories.
 */
export interface FuzzyMatch {
  value: string;
  score: number;
}

export function fuzzyScore(query: string, candidate: string): number | undefined {
  if (query === '') return 0;
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  const nameStart = c.lastIndexOf('/') + 1;
  let score = 0;
  let position = 0;
  let previous = -2;
  for (const char of q) {
    const found = c.indexOf(char, position);
    if (found === -1) return undefined;
    let bonus = 1;
    if (found === previous + 1) bonus += 5;
    const before = c[found - 1];
    if (found === 0 || before === '/' || before === '-' || before === '_' || before === '.') bonus += 4;
    if (found >= nameStart) bonus += 2;
    score += bonus;
    previous = found;
    position = found + 1;
  }
  // A query that ends where a name part ends (`app` → `app.tsx`, not `apple`) is a closer match.
  const after = c[previous + 1];
  if (after === undefined || after === '.' || after === '/' || after === '-' || after === '_') score += 3;
  // Among equal matches, shorter paths first.
  return score - candidate.length / 100;
}

export function fuzzyFilter(query: string, candidates: readonly string[], limit: number): string[] {
  const matches: FuzzyMatch[] = [];
  for (const value of candidates) {
    const score = fuzzyScore(query, value);
    if (score !== undefined) matches.push({ value, score });
  }
  matches.sort((a, b) => b.score - a.score || (a.value < b.value ? -1 : 1));
  return matches.slice(0, limit).map((match) => match.value);
}
