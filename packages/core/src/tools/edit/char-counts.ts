/**
 * Character counts of a sliding window of lines, for a cheap lower bound on edit distance: each
 * edit changes one character count up and/or one down, so the distance is at least the larger of
 * the surplus and the deficit between two texts' counts. The fuzzy strategy skips, without
 * computing a distance, every window this bound already rules out.
 */

/** ASCII gets a bucket each; everything else shares a few (merging buckets keeps the bound valid). */
const BUCKETS = 128 + 64;

function bucket(code: number): number {
  return code < 128 ? code : 128 + (code % 64);
}

export class CharCounts {
  readonly counts = new Int32Array(BUCKETS);

  add(text: string, sign: 1 | -1 = 1): void {
    for (let i = 0; i < text.length; i++) this.counts[bucket(text.charCodeAt(i))]! += sign;
  }

  /** A lower bound on the edit distance between the texts counted here and in `other`. */
  distanceBound(other: CharCounts): number {
    let surplus = 0;
    let deficit = 0;
    for (let i = 0; i < BUCKETS; i++) {
      const difference = this.counts[i]! - other.counts[i]!;
      if (difference > 0) surplus += difference;
      else deficit -= difference;
    }
    return Math.max(surplus, deficit);
  }
}
