import { readFile, stat } from 'node:fs/promises';
import { decodeText, splitLines } from '../file-text';
import type { GrepMatch } from './backend';

/** A line of grep output: a match (`L12: `) or a line around one (`L13- `). */
export interface GrepLine extends GrepMatch {
  /** Set for lines shown around a match. */
  isContext?: true;
}

export interface ContextWindow {
  before: number;
  after: number;
}

/** Files bigger than this get no context lines (reading them whole would cost too much). */
const MAX_CONTEXT_FILE_BYTES = 20 * 1024 * 1024;

/**
 * Adds the lines around each match, read from the files after the search. Every backend returns
 * bare matches; doing context here gives the same lines whichever backend ran, keeps the caps
 * simple (only matches count), and a matching line past a cap or dropped by `exclude_pattern`
 * still shows as context when it lies inside a window, as it would in the file.
 */
export async function withContext(
  matches: GrepMatch[],
  window: ContextWindow,
  signal: AbortSignal,
): Promise<GrepLine[]> {
  if (window.before + window.after === 0) return matches;
  const byFile = groupByFile(matches);
  const out: GrepLine[] = [];
  for (const [filePath, fileMatches] of byFile) {
    signal.throwIfAborted();
    const lines = await readLines(filePath);
    if (!lines) {
      out.push(...fileMatches);
      continue;
    }
    const matched = new Map(fileMatches.map((match) => [match.lineNumber, match]));
    const wanted = new Set<number>();
    for (const { lineNumber } of fileMatches) {
      const first = Math.max(1, lineNumber - window.before);
      const last = Math.min(lines.length, lineNumber + window.after);
      for (let n = first; n <= last; n++) wanted.add(n);
      wanted.add(lineNumber); // Even if the file shrank since the search.
    }
    for (const lineNumber of [...wanted].sort((a, b) => a - b)) {
      const match = matched.get(lineNumber);
      out.push(match ?? { filePath, lineNumber, line: lines[lineNumber - 1] ?? '', isContext: true });
    }
  }
  return out;
}

function groupByFile(matches: GrepMatch[]): Map<string, GrepMatch[]> {
  const byFile = new Map<string, GrepMatch[]>();
  for (const match of matches) {
    const list = byFile.get(match.filePath);
    if (list) list.push(match);
    else byFile.set(match.filePath, [match]);
  }
  return byFile;
}

async function readLines(path: string): Promise<string[] | undefined> {
  try {
    if ((await stat(path)).size > MAX_CONTEXT_FILE_BYTES) return undefined;
    return splitLines(decodeText(await readFile(path)).text);
  } catch {
    return undefined; // Deleted or unreadable since the search: show the matches alone.
  }
}
