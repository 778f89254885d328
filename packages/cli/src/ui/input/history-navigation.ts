/**
 * ↑/↓ through earlier prompts. `index` counts back from the newest entry; undefined means the
 * person's own unsent text (the draft), which comes back after going down past the newest entry.
 */
export interface HistoryPosition {
  index: number | undefined;
  draft: string;
}

export const AT_DRAFT: HistoryPosition = { index: undefined, draft: '' };

export function olderEntry(
  entries: readonly string[],
  position: HistoryPosition,
  currentText: string,
): { position: HistoryPosition; text: string } | undefined {
  const next = position.index === undefined ? 0 : position.index + 1;
  if (next >= entries.length) return undefined;
  const draft = position.index === undefined ? currentText : position.draft;
  return { position: { index: next, draft }, text: entries[entries.length - 1 - next]! };
}

export function newerEntry(
  entries: readonly string[],
  position: HistoryPosition,
): { position: HistoryPosition; text: string } | undefined {
  if (position.index === undefined) return undefined;
  if (position.index === 0) return { position: { index: undefined, draft: '' }, text: position.draft };
  const next = position.index - 1;
  return { position: { index: next, draft: position.draft }, text: entries[entries.length - 1 - next]! };
}

/**
 * Ctrl-R: the newest entry older than `before` (an index into `entries`, exclusive) that contains
 * the query, case-insensitively. Returns its index into `entries`.
 */
export function reverseSearch(entries: readonly string[], query: string, before: number): number | undefined {
  const needle = query.toLowerCase();
  for (let index = Math.min(before, entries.length) - 1; index >= 0; index -= 1) {
    if (entries[index]!.toLowerCase().includes(needle)) return index;
  }
  return undefined;
}
