import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { ignoreFilterOptions } from '../file-filtering';
import { DEPENDENCY_DIR_NAMES, IgnoreFilter, VCS_DIR_NAMES } from '../ignore-filter';
import {
  DEFAULT_EXCLUDED_FILE_GLOBS,
  type GrepBackend,
  type GrepMatch,
  type GrepQuery,
  MatchSink,
  queryFiltering,
} from './backend';
import { runLineProcess } from './line-process';

/** git's message when it was built without PCRE; the search is then repeated with `-E`. */
const NO_PCRE = /USE_LIBPCRE|not compiled with|cannot use Perl-compatible/i;

/**
 * `git grep` for a repository when ripgrep is missing: it searches tracked and untracked files,
 * obeys the repository's ignore rules natively and is much faster than a JS scan. The project
 * ignore files, which git does not know, are applied to its hits here.
 */
export class GitGrepBackend implements GrepBackend {
  readonly name = 'git grep';

  constructor(private readonly gitPath = 'git') {}

  async search(query: GrepQuery): Promise<GrepMatch[]> {
    const isDirectory = (await stat(query.searchPath)).isDirectory();
    const first = await this.run(query, { isDirectory, dialect: 'perl' });
    if (first.kind === 'matches') return first.matches;
    if (!NO_PCRE.test(first.message)) throw new Error(first.message);
    const second = await this.run(query, { isDirectory, dialect: 'extended' });
    if (second.kind === 'matches') return second.matches;
    throw new Error(second.message);
  }

  private async run(
    query: GrepQuery,
    options: { isDirectory: boolean; dialect: 'perl' | 'extended' },
  ): Promise<{ kind: 'matches'; matches: GrepMatch[] } | { kind: 'failed'; message: string }> {
    const cwd = options.isDirectory ? query.searchPath : dirname(query.searchPath);
    const filtering = queryFiltering(query);
    const projectRules = filtering.respectGeminiIgnore
      ? new IgnoreFilter({ ...ignoreFilterOptions(query.workspaceRoot, filtering), respectGitIgnore: false })
      : undefined;
    const sink = new MatchSink(query);
    let skippedFile: string | undefined;
    const outcome = await runLineProcess({
      command: this.gitPath,
      args: gitGrepArgs(query, options),
      cwd,
      env: query.env,
      signal: query.signal,
      onLine(bytes) {
        // With -z: `path NUL line-number NUL text`; paths are not quoted.
        const line = bytes.toString('utf8');
        const firstNul = line.indexOf('\0');
        const secondNul = line.indexOf('\0', firstNul + 1);
        if (firstNul === -1 || secondNul === -1) return 'more';
        const filePath = resolve(cwd, line.slice(0, firstNul));
        if (filePath === skippedFile) return 'more';
        if (projectRules && !projectRules.inactive && projectRules.isIgnored(filePath, false)) {
          skippedFile = filePath;
          return 'more';
        }
        const lineNumber = Number(line.slice(firstNul + 1, secondNul));
        const text = line.slice(secondNul + 1);
        const state = sink.add({
          filePath,
          lineNumber,
          line: text.endsWith('\r') ? text.slice(0, -1) : text,
        });
        if (state === 'next_file') skippedFile = filePath;
        return state === 'done' ? 'stop' : 'more';
      },
    });
    // Exit 1 means no match; anything above is an error (bad pattern, not a repository…).
    if (!outcome.stopped && (outcome.code === null || outcome.code > 1)) {
      return {
        kind: 'failed',
        message: outcome.stderr.trim() || `git grep exited with code ${outcome.code}`,
      };
    }
    return { kind: 'matches', matches: sink.matches };
  }
}

/** The git grep command line for a query (run from the search directory). */
export function gitGrepArgs(
  query: GrepQuery,
  options: { isDirectory: boolean; dialect: 'perl' | 'extended' },
): string[] {
  const args = ['--no-pager', '-c', 'grep.fallbackToNoIndex=false', 'grep', '--untracked', '-I', '-n', '-z'];
  args.push('--no-color');
  // A file named explicitly is searched even if ignored; so is everything with no_ignore.
  if (!queryFiltering(query).respectGitIgnore || !options.isDirectory) args.push('--no-exclude-standard');
  if (!query.caseSensitive) args.push('-i');
  if (query.fixedStrings) args.push('-F');
  else args.push(options.dialect === 'perl' ? '-P' : '-E');
  args.push('-e', query.pattern, '--');
  if (!options.isDirectory) return [...args, `:(literal)${basename(query.searchPath)}`];
  const includes = query.include ? expandBraces(query.include.replace(/^(\.\/|\/)+/, '')) : [];
  if (includes.length === 0) args.push('.');
  for (const include of includes)
    args.push(include.includes('/') ? `:(glob)${include}` : `:(glob)**/${include}`);
  const excluded = [
    ...VCS_DIR_NAMES.filter((name) => name !== '.git'),
    ...(query.respectIgnoreFiles ? DEPENDENCY_DIR_NAMES : []),
  ];
  for (const name of excluded) args.push(`:(exclude,glob)**/${name}/**`);
  if (query.respectIgnoreFiles) {
    for (const glob of DEFAULT_EXCLUDED_FILE_GLOBS) args.push(`:(exclude,glob)**/${glob}`);
  }
  return args;
}

/** `a{b,c}d` → `abd`, `acd` (pathspecs have no braces; nested groups expand too). */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open === -1) return [pattern];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < pattern.length && close === -1; i++) {
    const ch = pattern[i];
    if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) close = i;
    else if (ch === ',' && depth === 1) commas.push(i);
  }
  if (close === -1 || commas.length === 0) return [pattern];
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  const bounds = [open, ...commas, close];
  const expanded: string[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const option = pattern.slice(bounds[i]! + 1, bounds[i + 1]);
    expanded.push(...expandBraces(head + option + tail));
  }
  return expanded;
}
