import { statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { fileFilteringOf, ignoreFilterOptions } from '../file-filtering';
import { globFiles } from '../glob-walk';
import { DEPENDENCY_DIR_NAMES, IgnoreFilter, VCS_DIR_NAMES } from '../ignore-filter';
import { compileGlob, PatternError } from '../linear-match';
import { failure, failureFrom } from '../results';
import type { ToolContextFor, ToolError, ToolResult } from '../tool';
import { isInside } from '../workspace';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['workspace', 'fileFiltering'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

const RECENT_MS = 24 * 60 * 60 * 1000;
const EXCLUDED_DIR_NAMES: ReadonlySet<string> = new Set([...VCS_DIR_NAMES, ...DEPENDENCY_DIR_NAMES]);
/** Files stat'ed at once when sorting (bounded so huge result sets don't exhaust descriptors). */
const STAT_BATCH = 64;

const parameters = z.object({
  pattern: z.string().describe("Glob pattern, e.g. '**/*.ts' or 'src/**/*.{js,jsx}'."),
  dir_path: z
    .string()
    .optional()
    .describe(
      'Directory to search, absolute or relative to the working directory. Default: every workspace directory.',
    ),
  case_sensitive: z.boolean().optional().describe('Match case-sensitively (default false).'),
  respect_git_ignore: z.boolean().optional().describe('Leave out files .gitignore excludes (default true).'),
  respect_gemini_ignore: z
    .boolean()
    .optional()
    .describe('Leave out files .geminiignore or .kodoignore excludes (default true).'),
});

type Params = z.infer<typeof parameters>;

export const globTool = defineTool({
  name: 'glob',
  uses: USES,
  displayName: 'FindFiles',
  kind: 'search',
  description:
    'Finds files whose paths match a glob pattern and returns their absolute paths: files changed in the ' +
    'last 24 hours first (newest first), then the rest alphabetically. Skips node_modules, .git and ' +
    'files excluded by .gitignore, .geminiignore or .kodoignore.',
  parameters,
  validate: validateGlob,
  describe: (params, ctx) =>
    params.dir_path
      ? `'${params.pattern}' within ${ctx.workspace.display(ctx.workspace.absolute(params.dir_path))}`
      : `'${params.pattern}'`,
  locations: (params, ctx) => searchDirs(params, ctx),
  execute: (params, ctx, options) => globExecute(params, ctx, options.signal),
});

function validateGlob(params: Params, ctx: Ctx): ToolError | undefined {
  if (params.pattern.trim() === '') {
    return { type: 'invalid_tool_params', message: "The 'pattern' parameter cannot be empty." };
  }
  try {
    compileGlob(params.pattern, { caseSensitive: true });
  } catch (error) {
    if (error instanceof PatternError) return { type: 'invalid_tool_params', message: error.message };
    throw error;
  }
  if (params.dir_path === undefined) return undefined;
  const resolved = ctx.workspace.resolvePath(params.dir_path, { access: 'read' });
  if (!resolved.ok) return resolved.error;
  try {
    if (!statSync(resolved.path).isDirectory()) {
      return { type: 'invalid_tool_params', message: `Search path is not a directory: ${resolved.path}` };
    }
  } catch {
    return { type: 'invalid_tool_params', message: `Search path does not exist ${resolved.path}` };
  }
  return undefined;
}

function searchDirs(params: Params, ctx: Ctx): string[] {
  return params.dir_path === undefined ? [...ctx.workspace.roots] : [ctx.workspace.absolute(params.dir_path)];
}

interface Found {
  path: string;
  mtimeMs: number;
}

async function globExecute(params: Params, ctx: Ctx, signal: AbortSignal): Promise<ToolResult> {
  if (params.dir_path !== undefined) {
    const resolved = ctx.workspace.resolvePath(params.dir_path, { access: 'read' });
    if (!resolved.ok) return failureFrom(resolved.error);
  }
  const dirs = searchDirs(params, ctx);
  try {
    let ignored = 0;
    const kept = new Set<string>();
    for (const dir of dirs) {
      const outcome = await searchOne(params, ctx, dir, signal);
      ignored += outcome.ignored;
      for (const path of outcome.paths) kept.add(path);
    }
    const sorted = sortByRecency(await withMtimes([...kept]), Date.now());
    return formatResult(params.pattern, dirs, sorted, ignored);
  } catch (error) {
    return failure('glob_execution_error', `Error during glob search operation: ${errorMessage(error)}`);
  }
}

async function searchOne(
  params: Params,
  ctx: Ctx,
  dir: string,
  signal: AbortSignal,
): Promise<{ paths: string[]; ignored: number }> {
  const inside = ctx.workspace.realPathFilter({ access: 'read' });
  const matches = await globFiles({
    cwd: dir,
    pattern: params.pattern,
    caseSensitive: params.case_sensitive ?? false,
    excludedDirNames: EXCLUDED_DIR_NAMES,
    within: (path) => ctx.workspace.contains(path),
    signal,
  });
  const root = ctx.workspace.roots.find((r) => isInside(r, dir)) ?? dir;
  const filter = new IgnoreFilter(
    ignoreFilterOptions(root, fileFilteringOf(ctx), {
      respectGitIgnore: params.respect_git_ignore,
      respectGeminiIgnore: params.respect_gemini_ignore,
    }),
  );
  const paths: string[] = [];
  let ignored = 0;
  for (const match of matches) {
    const path = resolve(match);
    // A pattern like `../**` may reach outside; only paths inside the workspace are reported,
    // by their real paths: a symlinked directory's name is inside while its files may not be.
    if (!ctx.workspace.roots.some((r) => isInside(r, path)) || !inside(path)) continue;
    if (!filter.inactive && filter.isIgnored(path, false)) ignored++;
    else paths.push(path);
  }
  return { paths, ignored };
}

async function withMtimes(paths: string[]): Promise<Found[]> {
  const found: Found[] = [];
  for (let i = 0; i < paths.length; i += STAT_BATCH) {
    const batch = paths.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(batch.map((path) => lstat(path).catch(() => undefined)));
    batch.forEach((path, j) => {
      found.push({ path, mtimeMs: stats[j]?.mtimeMs ?? 0 });
    });
  }
  return found;
}

/** Files changed within the last 24 h first, newest first; then everything else by path. */
export function sortByRecency(files: Found[], now: number): Found[] {
  const recent = files.filter((f) => now - f.mtimeMs < RECENT_MS).sort((a, b) => b.mtimeMs - a.mtimeMs);
  // A collator compares like localeCompare, many times faster on tens of thousands of paths.
  const byPath = new Intl.Collator().compare;
  const older = files.filter((f) => now - f.mtimeMs >= RECENT_MS).sort((a, b) => byPath(a.path, b.path));
  return [...recent, ...older];
}

function formatResult(pattern: string, dirs: string[], files: Found[], ignored: number): ToolResult {
  const where = dirs.length === 1 ? `within ${dirs[0]}` : `across ${dirs.length} workspace directories`;
  if (files.length === 0) {
    const note = ignored > 0 ? ` (${ignored} files were ignored)` : '';
    const text = `No files found matching pattern "${pattern}" ${where}${note}`;
    return { llmContent: text, returnDisplay: 'No files found' };
  }
  const note = ignored > 0 ? ` (${ignored} additional files were ignored)` : '';
  const list = files.map((f) => f.path).join('\n');
  return {
    llmContent: `Found ${files.length} file(s) matching "${pattern}" ${where}${note}, sorted by modification time (newest first):\n${list}`,
    returnDisplay: `Found ${files.length} matching file(s)`,
  };
}
