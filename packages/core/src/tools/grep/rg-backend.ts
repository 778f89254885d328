import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { ignoreFilterOptions } from '../file-filtering';
import {
  DEPENDENCY_DIR_NAMES,
  findGitRoot,
  IgnoreFilter,
  projectIgnoreFiles,
  VCS_DIR_NAMES,
} from '../ignore-filter';
import {
  DEFAULT_EXCLUDED_FILE_GLOBS,
  type GrepBackend,
  type GrepMatch,
  type GrepQuery,
  MatchSink,
  queryFiltering,
} from './backend';
import { runLineProcess } from './line-process';
import { isMatchMessage, parseMatch } from './rg-json';

// A type name of our own for `--type-add`, unlikely to clash with rg's built-in types.
const INCLUDE_TYPE = 'kodoinclude';

/**
 * ripgrep, run with `--json` and read as it streams: the process is killed as soon as the match
 * cap is reached, so a common pattern in a huge tree costs no more than the first hundred hits.
 * rg runs from the workspace root, so the project ignore files (`--ignore-file`, whose rules rg
 * matches relative to its working directory) mean what they say for any searched subdirectory.
 */
export class RipgrepBackend implements GrepBackend {
  readonly name = 'ripgrep';

  constructor(private readonly rgPath: string) {}

  async search(query: GrepQuery): Promise<GrepMatch[]> {
    const isDirectory = (await stat(query.searchPath)).isDirectory();
    const root = query.workspaceRoot;
    const sink = new MatchSink(query);
    // A `--glob` include overrides rg's ignore rules; its hits are checked against them here.
    const recheck =
      isDirectory && query.respectIgnoreFiles && query.include?.includes('/')
        ? new IgnoreFilter(ignoreFilterOptions(root, queryFiltering(query)))
        : undefined;
    let skippedFile: string | undefined;
    // rg prints each file's matches together: resolving its path once per file is enough.
    let lastRawPath = '';
    let lastPath = '';
    // A search that ran prints at least its `summary`; a bad pattern or flag stops rg before that.
    let searched = false;
    const outcome = await runLineProcess({
      command: this.rgPath,
      args: ripgrepArgs(query, { isDirectory }),
      cwd: root,
      env: query.env,
      signal: query.signal,
      onLine(line) {
        searched = true;
        // Only matches matter; `begin`, `end`, `context` and `summary` are skipped unparsed.
        if (!isMatchMessage(line)) return 'more';
        const data = parseMatch(line);
        if (!data) return 'more';
        if (data.path !== lastRawPath) {
          lastRawPath = data.path;
          lastPath = resolve(root, data.path);
        }
        const filePath = lastPath;
        if (filePath === skippedFile) return 'more';
        if (recheck?.isIgnored(filePath, false)) {
          skippedFile = filePath;
          return 'more';
        }
        const state = sink.add({
          filePath,
          lineNumber: data.lineNumber,
          line: data.line,
          ...(data.matchStart !== undefined ? { matchStart: data.matchStart } : {}),
        });
        if (state === 'next_file') skippedFile = filePath;
        return state === 'done' ? 'stop' : 'more';
      },
    });
    // Exit 2 also reports unreadable files, which do not fail the search.
    if (!outcome.stopped && (outcome.code === null || (outcome.code === 2 && !searched))) {
      throw new Error(outcome.stderr.trim() || 'ripgrep was terminated');
    }
    return sink.matches;
  }
}

/** The rg command line for a query (run from the workspace root). */
export function ripgrepArgs(query: GrepQuery, target: { isDirectory: boolean }): string[] {
  const root = query.workspaceRoot;
  const relSearch = toPosix(relative(root, query.searchPath)) || '.';
  const args = [
    '--json',
    '--no-config',
    '--hidden',
    '--no-messages',
    '--no-ignore-messages',
    '--engine=auto',
  ];
  args.push(query.caseSensitive ? '--case-sensitive' : '--ignore-case');
  if (query.fixedStrings) args.push('--fixed-strings');
  // Lines dropped by exclude_pattern must not use up rg's per-file count.
  if (query.maxPerFile !== undefined && !query.excludePattern) args.push(`--max-count=${query.maxPerFile}`);
  if (target.isDirectory && query.include) {
    if (query.include.includes('/')) {
      // Globs with a slash are relative to rg's working directory: anchor them at the search dir.
      const glob = query.include.replace(/^(\.\/|\/)+/, '');
      args.push(`--glob=${relSearch === '.' ? glob : `${relSearch}/${glob}`}`);
    } else {
      // A file-type filter, unlike --glob, does not re-include files the ignore rules exclude.
      args.push(`--type-add=${INCLUDE_TYPE}:${query.include}`, `--type=${INCLUDE_TYPE}`);
    }
  }
  if (query.respectIgnoreFiles) {
    const filtering = queryFiltering(query);
    if (!filtering.respectGitIgnore) {
      args.push('--no-ignore-vcs');
    } else if (findGitRoot(root) === undefined) {
      // Outside a repository .gitignore files still say what is noise, as in the other backends;
      // those above the workspace are not the project's.
      args.push('--no-require-git', '--no-ignore-parent');
    }
    if (filtering.respectGeminiIgnore) {
      // rg gives later --ignore-file flags precedence, as projectIgnoreFiles orders them.
      const files = projectIgnoreFiles({
        workspaceRoot: root,
        customIgnoreFiles: filtering.customIgnoreFilePaths,
      });
      for (const file of files) if (existsSync(file)) args.push(`--ignore-file=${file}`);
    }
    for (const name of DEPENDENCY_DIR_NAMES) args.push(`--glob=!${name}`);
    for (const glob of DEFAULT_EXCLUDED_FILE_GLOBS) args.push(`--glob=!${glob}`);
  } else {
    args.push('--no-ignore');
  }
  for (const name of VCS_DIR_NAMES) args.push(`--glob=!${name}`);
  args.push('--regexp', query.pattern, '--', relSearch);
  return args;
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
