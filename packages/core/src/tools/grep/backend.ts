/**
 * The search engine behind `grep_search`. The tool validates, formats and enforces limits; a
 * backend only finds matching lines. The pure-JS backend works everywhere; a ripgrep backend can
 * implement the same interface and be chosen when `rg` is available.
 */

export interface GrepQuery {
  /** Absolute directory (or single file) to search. */
  searchPath: string;
  /** Workspace root the search path lies in; ignore files are looked up from here. */
  workspaceRoot: string;
  /** Regular expression (JavaScript syntax), or a literal string when `fixedStrings`. */
  pattern: string;
  caseSensitive: boolean;
  fixedStrings: boolean;
  /** Lines matching this regular expression are dropped from the results. */
  excludePattern?: string;
  /** Glob the file paths must match; a pattern without `/` matches the file name at any depth. */
  include?: string;
  /** Obey .gitignore/.geminiignore and the default `*.log`/`*.tmp` excludes. */
  respectIgnoreFiles: boolean;
  /** Stop after this many matching lines in total. */
  maxTotal: number;
  /** Stop reading a file after this many matching lines in it. */
  maxPerFile?: number;
  signal: AbortSignal;
}

export interface GrepMatch {
  /** Absolute path of the file. */
  filePath: string;
  /** 1-based. */
  lineNumber: number;
  /** The line without its line ending. */
  line: string;
}

export interface GrepBackend {
  readonly name: string;
  /** Matches in path order, ascending line order within a file, at most `maxTotal`. */
  search(query: GrepQuery): Promise<GrepMatch[]>;
}

/** The RegExp a query describes (no `g` flag: `test` must not carry state between lines). */
export function queryRegExp(query: Pick<GrepQuery, 'pattern' | 'caseSensitive' | 'fixedStrings'>): RegExp {
  const source = query.fixedStrings ? query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : query.pattern;
  return new RegExp(source, query.caseSensitive ? '' : 'i');
}
