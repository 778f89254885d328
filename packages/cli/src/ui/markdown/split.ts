/**
 * Where a streaming Markdown answer can be cut so that the part before the cut is final: the
 * last blank line that is outside a fenced code block. The UI moves that part into the static
 * history (rendered once) and keeps only the rest live, so the re-rendered region stays small
 * however long the answer grows.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The length of the longest prefix that ends with a paragraph break outside code fences, or 0
 * when there is none. The prefix includes the blank line.
 */
export function lastSafeSplit(text: string): number {
  let inFence: string | undefined;
  let best = 0;
  let lineStart = 0;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    // The last line has no newline yet: it is still being written and cannot close anything.
    if (newline === -1) break;
    const line = text.slice(lineStart, newline);
    const fence = FENCE.exec(line)?.[1];
    if (fence) {
      if (inFence === undefined) inFence = fence[0];
      else if (fence[0] === inFence) inFence = undefined;
    }
    const blank = line.trim() === '';
    if (blank && inFence === undefined && lineStart > 0) best = newline + 1;
    lineStart = newline + 1;
  }
  return best;
}

/**
 * The end of a streaming text that fits in `maxRows` terminal rows of `width` columns (lines
 * wrap), for the live region. When the cut falls inside a fenced code block, the fence is
 * reopened so the tail still renders as code.
 */
export function liveTail(text: string, maxRows: number, width: number): string {
  const lines = text.split('\n');
  let rows = 0;
  let first = lines.length;
  while (first > 0) {
    const line = lines[first - 1]!;
    const height = Math.max(1, Math.ceil(line.length / Math.max(1, width)));
    if (rows + height > maxRows) break;
    rows += height;
    first -= 1;
  }
  if (first === 0) return text;
  // A single line taller than the budget is still shown (Ink wraps it).
  first = Math.min(first, lines.length - 1);
  let openFence: string | undefined;
  for (const line of lines.slice(0, first)) {
    const fence = FENCE.exec(line)?.[1];
    if (!fence) continue;
    if (openFence === undefined) openFence = line.trim();
    else if (fence[0] === openFence[0]) openFence = undefined;
  }
  const tail = lines.slice(first).join('\n');
  return openFence ? `${openFence}\n${tail}` : tail;
}
