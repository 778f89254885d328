import { basename, relative, sep } from 'node:path';
import type { ToolResult } from '../tool';
import type { GrepLine } from './context';

/**
 * Longer lines are shown as a window of this many characters: around the match for a matching
 * line (a minified bundle's hit is rarely in its first 2,000 characters), from the start for a
 * context line, with a note of how much was cut on each side. The cut never splits a grapheme.
 */
const MAX_LINE_CHARS = 2000;
/** Of the window, how much comes before the match. */
const BEFORE_MATCH_CHARS = 200;

export interface GrepReport {
  pattern: string;
  /** `dir_path` as the model gave it, or `.`. */
  dirLabel: string;
  include?: string;
  /** Absolute searched path: output paths are relative to it. */
  searchPath: string;
  maxTotal: number;
  namesOnly: boolean;
  /** Number of matches the search found (context lines not counted). */
  matchCount: number;
  lines: GrepLine[];
}

/** Gemini CLI's result text: a header, then per file `File: <path>` and `L<n>: ` / `L<n>- ` lines. */
export function formatGrepReport(report: GrepReport): ToolResult {
  const header = `for pattern "${report.pattern}" in path "${report.dirLabel}"`;
  const filter = report.include ? ` (filter: "${report.include}")` : '';
  if (report.matchCount === 0) {
    return { llmContent: `No matches found ${header}${filter}.`, returnDisplay: 'No matches found' };
  }
  const limited =
    report.matchCount >= report.maxTotal
      ? ` (results limited to ${report.maxTotal} matches for performance)`
      : '';
  const byPath = new Map<string, GrepLine[]>();
  for (const line of report.lines) {
    const list = byPath.get(line.filePath);
    if (list) list.push(line);
    else byPath.set(line.filePath, [line]);
  }
  const byFile = new Map([...byPath].map(([path, lines]) => [displayPath(report.searchPath, path), lines]));
  // Backends that search in parallel find files in any order; the output is stable regardless.
  const files = [...byFile.keys()].sort(compareCodePoints);
  if (report.namesOnly) {
    return {
      llmContent: `Found ${files.length} files with matches ${header}${filter}${limited}:\n${files.join('\n')}`,
      returnDisplay: `Found ${files.length} file(s) with matches`,
    };
  }
  const noun = report.matchCount === 1 ? 'match' : 'matches';
  const parts = [`Found ${report.matchCount} ${noun} ${header}${filter}${limited}:\n---\n`];
  for (const file of files) {
    parts.push(`File: ${file}\n`);
    const lines = byFile.get(file)!;
    if (!isAscending(lines)) lines.sort((a, b) => a.lineNumber - b.lineNumber);
    for (const line of lines) {
      parts.push(`L${line.lineNumber}${line.isContext ? '-' : ':'} ${cutLine(line.line, line.matchStart)}\n`);
    }
    parts.push('---\n');
  }
  return {
    llmContent: parts.join('').trimEnd(),
    returnDisplay: `Found ${report.matchCount} ${noun}${limited ? ' (limited)' : ''}`,
  };
}

/** Path relative to the searched directory, with `/` separators; the name when a file was searched. */
function displayPath(searchPath: string, filePath: string): string {
  if (filePath === searchPath) return basename(filePath);
  return relative(searchPath, filePath).split(sep).join('/');
}

function isAscending(lines: GrepLine[]): boolean {
  for (let i = 1; i < lines.length; i++) if (lines[i - 1]!.lineNumber > lines[i]!.lineNumber) return false;
  return true;
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `line`, or for a long one a window of it (around `matchStart` when given) with notes of what
 * was cut. The work is bounded by the window, not the line: only a few characters around each
 * cut are looked at to find a grapheme boundary.
 */
export function cutLine(line: string, matchStart?: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const wanted = Math.max(0, Math.min((matchStart ?? 0) - BEFORE_MATCH_CHARS, line.length - MAX_LINE_CHARS));
  const start = graphemeBoundary(line, wanted);
  const end =
    wanted + MAX_LINE_CHARS >= line.length ? line.length : graphemeBoundary(line, wanted + MAX_LINE_CHARS);
  const before = start > 0 ? `[${group(start)} characters cut] ` : '';
  const after = end < line.length ? ` [${group(line.length - end)} characters cut]` : '';
  return `${before}${line.slice(start, end)}${after}`;
}

/** The grapheme boundary at or before `index`, found by segmenting a few characters around it. */
function graphemeBoundary(line: string, index: number): number {
  if (index <= 0 || index >= line.length) return Math.max(0, Math.min(index, line.length));
  const from = Math.max(0, index - 64);
  let boundary = from;
  for (const { index: at } of SEGMENTER.segment(line.slice(from, Math.min(line.length, index + 64)))) {
    if (from + at > index) break;
    boundary = from + at;
  }
  return boundary;
}

const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function group(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
