/** Prints rows as a Markdown table (so figures paste straight into docs/performance.md). */
export function printTable(headers: string[], rows: (string | number)[][]): void {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(line(cells[0]!));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of cells.slice(1)) console.log(line(row));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const fmt = (value: number, digits = 1) => value.toFixed(digits);

/**
 * Issue O's start-up budget: launch → first model request within this many times the floor (a
 * bare `node` making one node:http request), on Node 20. The start-up and provider benchmarks
 * both check it.
 */
export const FIRST_REQUEST_BUDGET = 2.0;
