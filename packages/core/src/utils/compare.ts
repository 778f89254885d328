/**
 * Plain UTF-16 code-unit order for names and paths read at start-up. `localeCompare` (and
 * `Intl.Collator`) initialise ICU collation on first use, ~4 ms on the way to the first
 * request; discovery order only has to be stable, not linguistic.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
