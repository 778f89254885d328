import { DEFAULT_FILE_FILTERING, type FileFiltering } from '../file-filtering';
import { compileRegex, type LinearMatcher } from '../linear-match';

/**
 * The search engines behind `grep_search`. The tool validates, adds context lines and formats; a
 * backend only finds matching lines, within the query's limits. Three implement this interface:
 * ripgrep (the default), `git grep` (inside a repository when rg is missing) and a pure-JS scan
 * (everywhere). `select.ts` picks one per call.
 */

export interface GrepQuery {
  /** Absolute directory (or single file) to search. */
  searchPath: string;
  /** Workspace root the search path lies in; the project ignore files are read from here. */
  workspaceRoot: string;
  /** Regular expression, or a literal string when `fixedStrings`. */
  pattern: string;
  caseSensitive: boolean;
  fixedStrings: boolean;
  /** Lines matching this regular expression (JavaScript syntax) are dropped from the results. */
  excludePattern?: string;
  /** Glob the file paths must match; a pattern without `/` matches the file name at any depth. */
  include?: string;
  /** Obey .gitignore, the project ignore files and the default excludes (dependency dirs, logs). */
  respectIgnoreFiles: boolean;
  /**
   * With respectIgnoreFiles: which ignore files (`context.fileFiltering`); default all of
   * .gitignore and the project ignore files.
   */
  filtering?: FileFiltering;
  /** Stop after this many matching lines in total. */
  maxTotal: number;
  /** Stop reading a file after this many matching lines in it. */
  maxPerFile?: number;
  /** Environment for child processes (already stripped of secrets). */
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

export interface GrepMatch {
  /** Absolute path of the file. */
  filePath: string;
  /** 1-based. */
  lineNumber: number;
  /** The line without its line ending. */
  line: string;
  /** Where the first match starts in `line` (UTF-16 index), when the backend knows: a long line is shown around it. */
  matchStart?: number;
}

export interface GrepBackend {
  readonly name: string;
  /** At most `maxTotal` matches (not excluded), at most `maxPerFile` per file. */
  search(query: GrepQuery): Promise<GrepMatch[]>;
}

/** The ignore files a query obeys: none with no_ignore, else its filtering. */
export function queryFiltering(query: Pick<GrepQuery, 'respectIgnoreFiles' | 'filtering'>): FileFiltering {
  if (!query.respectIgnoreFiles) {
    return { respectGitIgnore: false, respectGeminiIgnore: false, customIgnoreFilePaths: [] };
  }
  return query.filtering ?? DEFAULT_FILE_FILTERING;
}

/** Log and temp files: noise in a code search, skipped unless ignore rules are off. */
export const DEFAULT_EXCLUDED_FILE_GLOBS: readonly string[] = ['*.log', '*.tmp'];

/** The RegExp a query describes (no `g` flag: `test` must not carry state between lines). */
export function queryRegExp(query: Pick<GrepQuery, 'pattern' | 'caseSensitive' | 'fixedStrings'>): RegExp {
  const source = query.fixedStrings ? escapeRegExp(query.pattern) : query.pattern;
  return new RegExp(source, query.caseSensitive ? '' : 'i');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What the sink wants next: more lines, the next file (this one is full), or nothing. */
export type SinkState = 'more' | 'next_file' | 'done';

/**
 * Collects matches in the order a backend finds them and enforces the query's limits the same way
 * for every backend: excluded lines are dropped before they count, then the per-file and total
 * caps apply.
 */
export class MatchSink {
  readonly matches: GrepMatch[] = [];
  private readonly exclude: LinearMatcher | undefined;
  private readonly perFile = new Map<string, number>();
  // Backends report a file's matches together: its count is kept at hand until the file changes.
  private currentFile = '';
  private currentCount = 0;

  constructor(
    private readonly query: Pick<GrepQuery, 'excludePattern' | 'caseSensitive' | 'maxTotal' | 'maxPerFile'>,
  ) {
    // Linear-time: the pattern comes from the model and runs on every matching line.
    this.exclude = query.excludePattern
      ? compileRegex(query.excludePattern, { caseSensitive: query.caseSensitive })
      : undefined;
  }

  get done(): boolean {
    return this.matches.length >= this.query.maxTotal;
  }

  add(match: GrepMatch): SinkState {
    if (this.done) return 'done';
    if (match.filePath !== this.currentFile) {
      this.perFile.set(this.currentFile, this.currentCount);
      this.currentFile = match.filePath;
      this.currentCount = this.perFile.get(match.filePath) ?? 0;
    }
    const perFileLimit = this.query.maxPerFile ?? Number.POSITIVE_INFINITY;
    if (this.currentCount >= perFileLimit) return 'next_file';
    if (this.exclude?.test(match.line)) return 'more';
    this.matches.push(match);
    this.currentCount++;
    if (this.done) return 'done';
    return this.currentCount >= perFileLimit ? 'next_file' : 'more';
  }
}
