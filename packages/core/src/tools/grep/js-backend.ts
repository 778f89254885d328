import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { glob } from 'tinyglobby';
import { classifyFile } from '../file-kind';
import { decodeText, readFileHead, splitLines } from '../file-text';
import { ALWAYS_EXCLUDED_GLOBS, IgnoreFilter } from '../ignore-filter';
import { isInside } from '../workspace';
import { type GrepBackend, type GrepMatch, type GrepQuery, queryRegExp } from './backend';

/** Skipped unless ignore files are disabled (logs and temp files are noise in code search). */
const DEFAULT_EXCLUDED = ['**/*.log', '**/*.tmp'];
/** Files up to this size are read whole (fast); bigger ones are streamed line by line. */
const WHOLE_FILE_LIMIT = 1024 * 1024;

interface LineTest {
  regex: RegExp;
  exclude: RegExp | undefined;
}

/**
 * Pure-JavaScript search: lists files with tinyglobby, drops ignored and binary ones, and scans
 * them one at a time in path order, so memory stays bounded by the largest small file and the
 * match cap.
 */
export class JsGrepBackend implements GrepBackend {
  readonly name = 'javascript';

  async search(query: GrepQuery): Promise<GrepMatch[]> {
    const test: LineTest = {
      regex: queryRegExp(query),
      exclude: query.excludePattern
        ? new RegExp(query.excludePattern, query.caseSensitive ? '' : 'i')
        : undefined,
    };
    const matches: GrepMatch[] = [];
    for (const file of await listFiles(query)) {
      query.signal.throwIfAborted();
      const remaining = query.maxTotal - matches.length;
      if (remaining <= 0) break;
      const limit = Math.min(remaining, query.maxPerFile ?? Number.POSITIVE_INFINITY);
      await searchFile(file, test, limit, matches);
    }
    return matches;
  }
}

async function listFiles(query: GrepQuery): Promise<string[]> {
  const info = await stat(query.searchPath);
  if (!info.isDirectory()) return [query.searchPath];
  const found = await glob(includeGlob(query.include), {
    cwd: query.searchPath,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    ignore: query.respectIgnoreFiles
      ? [...ALWAYS_EXCLUDED_GLOBS, ...DEFAULT_EXCLUDED]
      : ALWAYS_EXCLUDED_GLOBS,
    signal: query.signal,
  });
  const filter = new IgnoreFilter({
    workspaceRoot: query.workspaceRoot,
    respectGitIgnore: query.respectIgnoreFiles,
    respectGeminiIgnore: query.respectIgnoreFiles,
  });
  return found
    .map((path) => resolve(path))
    .filter((path) => isInside(query.searchPath, path))
    .filter((path) => filter.inactive || !filter.isIgnored(path, false))
    .sort();
}

/** Like ripgrep's `--glob`: a pattern without `/` matches the file name at any depth. */
function includeGlob(include: string | undefined): string {
  if (!include) return '**/*';
  return include.includes('/') ? include : `**/${include}`;
}

async function searchFile(path: string, test: LineTest, limit: number, out: GrepMatch[]): Promise<void> {
  let text: string | undefined;
  try {
    const info = await stat(path);
    const kind = classifyFile(path, await readFileHead(path));
    if (kind !== 'text' && kind !== 'svg') return;
    if (info.size <= WHOLE_FILE_LIMIT) text = decodeText(await readFile(path)).text;
  } catch {
    return; // Unreadable or vanished since listing: not a match, not an error.
  }
  if (text === undefined) await streamLines(path, test, limit, out);
  else scanLines(splitLines(text), path, test, limit, out);
}

function scanLines(lines: string[], path: string, test: LineTest, limit: number, out: GrepMatch[]): void {
  let found = 0;
  for (let i = 0; i < lines.length && found < limit; i++) {
    const line = lines[i]!;
    if (isMatch(line, test)) {
      out.push({ filePath: path, lineNumber: i + 1, line });
      found++;
    }
  }
}

async function streamLines(path: string, test: LineTest, limit: number, out: GrepMatch[]): Promise<void> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  let found = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (!isMatch(line, test)) continue;
      out.push({ filePath: path, lineNumber, line });
      if (++found >= limit) break;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

function isMatch(line: string, test: LineTest): boolean {
  return test.regex.test(line) && !test.exclude?.test(line);
}
