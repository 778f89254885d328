import { createReadStream } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { ignoreFilterOptions } from '../file-filtering';
import { classifyFile, isSearchableText } from '../file-kind';
import { decodeText, splitLines } from '../file-text';
import { globFiles } from '../glob-walk';
import { DEPENDENCY_DIR_NAMES, IgnoreFilter, VCS_DIR_NAMES } from '../ignore-filter';
import { compileGlob, compileRegex, type LinearMatcher, type RegexMatcher } from '../linear-match';
import { isInside } from '../workspace';
import {
  DEFAULT_EXCLUDED_FILE_GLOBS,
  type GrepBackend,
  type GrepMatch,
  type GrepQuery,
  MatchSink,
  queryFiltering,
} from './backend';

/** Files up to this size are read whole (fast); bigger ones are streamed line by line. */
const WHOLE_FILE_LIMIT = 1024 * 1024;

/** Files read at once: enough to hide file-system latency, few enough to bound memory. */
const READ_AHEAD = 16;

/**
 * Pure-JavaScript search, the last resort: lists files with a linear-time glob walk, drops ignored and binary
 * ones, and scans them in path order. A window of files is read ahead in parallel (one at a time,
 * a 50,000-file tree took seconds of pure syscall latency); memory stays bounded by that window
 * of files up to 1 MB (bigger ones are streamed) and the match cap.
 */
export class JsGrepBackend implements GrepBackend {
  readonly name = 'javascript';

  async search(query: GrepQuery): Promise<GrepMatch[]> {
    // RE2, not RegExp: the pattern comes from the model (see linear-match.ts).
    const regex = compileRegex(query.fixedStrings ? escapeRe2(query.pattern) : query.pattern, {
      caseSensitive: query.caseSensitive,
    });
    const sink = new MatchSink(query);
    query.signal.throwIfAborted();
    const files = await listFiles(query);
    for (let i = 0; i < files.length; i += READ_AHEAD) {
      query.signal.throwIfAborted();
      const batch = files.slice(i, i + READ_AHEAD);
      const contents = await Promise.all(batch.map(loadFile));
      for (let j = 0; j < batch.length; j++) {
        const scan = { regex, sink, signal: query.signal, pause: new Pause() };
        if ((await searchFile(batch[j]!, contents[j]!, scan)) === 'done') return sink.matches;
      }
    }
    return sink.matches;
  }
}

async function listFiles(query: GrepQuery): Promise<string[]> {
  const info = await stat(query.searchPath);
  if (!info.isDirectory()) return [query.searchPath];
  const excludedDirs = query.respectIgnoreFiles ? [...VCS_DIR_NAMES, ...DEPENDENCY_DIR_NAMES] : VCS_DIR_NAMES;
  const excludedFiles: LinearMatcher[] = query.respectIgnoreFiles
    ? DEFAULT_EXCLUDED_FILE_GLOBS.map((g) => compileGlob(g, { caseSensitive: true, segment: true }))
    : [];
  const found = await globFiles({
    cwd: query.searchPath,
    pattern: includeGlob(query.include),
    caseSensitive: true,
    excludedDirNames: new Set(excludedDirs),
    within: (dir) => isInside(query.searchPath, dir),
    signal: query.signal,
  });
  const filter = new IgnoreFilter(ignoreFilterOptions(query.workspaceRoot, queryFiltering(query)));
  return found
    .map((path) => resolve(path))
    .filter((path) => isInside(query.searchPath, path))
    .filter((path) => !excludedFiles.some((m) => m.test(basename(path))))
    .filter((path) => filter.inactive || !filter.isIgnored(path, false))
    .sort();
}

/** Like ripgrep's `--glob`: a pattern without `/` matches the file name at any depth. */
function includeGlob(include: string | undefined): string {
  if (!include) return '**/*';
  const glob = include.replace(/^(\.\/|\/)+/, '');
  return glob.includes('/') ? glob : `**/${glob}`;
}

type FileOutcome = 'more' | 'done';

/** A small text file's text, `stream` for a big text file, `skip` for binary or unreadable. */
type Loaded = { text: string } | 'stream' | 'skip';

async function loadFile(path: string): Promise<Loaded> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    if (size > WHOLE_FILE_LIMIT) {
      const head = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return isSearchableText(classifyFile(path, head.subarray(0, bytesRead)).kind) ? 'stream' : 'skip';
    }
    const bytes = await handle.readFile();
    if (!isSearchableText(classifyFile(path, bytes.subarray(0, 4096)).kind)) return 'skip';
    return { text: decodeText(bytes).text };
  } catch {
    return 'skip'; // Unreadable or vanished since listing: not a match, not an error.
  } finally {
    await handle?.close();
  }
}

/** What scanning a file needs: the pattern, where matches go, and when to stop or let others run. */
interface Scan {
  regex: RegexMatcher;
  sink: MatchSink;
  signal: AbortSignal;
  pause: Pause;
}

/**
 * Scanning is synchronous per line, and one minified line can take most of a second: between
 * lines the search gives the event loop a turn every few milliseconds, so an Esc (the abort)
 * is seen, and stops at the next line.
 */
class Pause {
  private since = performance.now();

  async between(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (performance.now() - this.since < PAUSE_EVERY_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.since = performance.now();
    signal.throwIfAborted();
  }
}

/** How long a scan runs before it lets the event loop (a key press, an abort) have a turn. */
const PAUSE_EVERY_MS = 20;

async function searchFile(path: string, loaded: Loaded, scan: Scan): Promise<FileOutcome> {
  if (loaded === 'skip') return 'more';
  if (loaded === 'stream') return streamLines(path, scan);
  const lines = splitLines(loaded.text);
  for (let i = 0; i < lines.length; i++) {
    await scan.pause.between(scan.signal);
    const state = matchLine(path, i + 1, lines[i]!, scan);
    if (state !== 'more') return state === 'done' ? 'done' : 'more';
  }
  return 'more';
}

/** Adds the line when it matches, with where the match starts (a long line is shown around it). */
function matchLine(path: string, lineNumber: number, line: string, { regex, sink }: Scan) {
  const matchStart = regex.firstMatchStart(line);
  if (matchStart === undefined) return 'more';
  return sink.add({ filePath: path, lineNumber, line, matchStart });
}

async function streamLines(path: string, scan: Scan): Promise<FileOutcome> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      await scan.pause.between(scan.signal);
      const state = matchLine(path, lineNumber, line, scan);
      if (state !== 'more') return state === 'done' ? 'done' : 'more';
    }
    return 'more';
  } catch (error) {
    if (scan.signal.aborted) throw error;
    return 'more';
  } finally {
    lines.close();
    stream.destroy();
  }
}

function escapeRe2(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
