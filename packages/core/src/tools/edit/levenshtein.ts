/**
 * Levenshtein distance with a ceiling: only the diagonal band of width 2·max+1 is computed, and the
 * computation stops once a whole row exceeds max. The fuzzy strategy asks "is it within 10 %?" for
 * every window of a file, so the bound turns O(n·m) per window into O(max·n).
 *
 * Returns the distance, or max + 1 when it is larger than max.
 */
export function boundedLevenshtein(a: string, b: string, max: number): number {
  const over = max + 1;
  if (max < 0) return over;
  if (Math.abs(a.length - b.length) > max) return over;
  if (a.length === 0 || b.length === 0) return Math.max(a.length, b.length);
  const width = b.length + 1;
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let j = 0; j < width; j++) previous[j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const low = Math.max(1, i - max);
    const high = Math.min(b.length, i + max);
    current[0] = i <= max ? i : over;
    if (low > 1) current[low - 1] = over;
    let rowMin = low === 1 ? current[0]! : over;
    const code = a.charCodeAt(i - 1);
    for (let j = low; j <= high; j++) {
      const substitution = previous[j - 1]! + (code === b.charCodeAt(j - 1) ? 0 : 1);
      const deletion = previous[j]! + 1;
      const insertion = current[j - 1]! + 1;
      const value = Math.min(substitution, deletion, insertion, over);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    // The next row reads one cell past this band: it must look "too far", not stale.
    if (high < b.length) current[high + 1] = over;
    if (rowMin > max) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length]!, over);
}
