import { statSync } from 'node:fs';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { fileFilteringOf } from '../file-filtering';
import { type GrepBackend, type GrepMatch, queryRegExp } from '../grep/backend';
import { type ContextWindow, type GrepLine, withContext } from '../grep/context';
import { formatGrepReport } from '../grep/format';
import { autoGrepBackends, type GrepBackendChoice } from '../grep/select';
import { compileRegex } from '../linear-match';
import { failure, failureFrom } from '../results';
import type { Tool, ToolContext, ToolError, ToolResult } from '../tool';
import { isInside } from '../workspace';

export const DEFAULT_TOTAL_MAX_MATCHES = 100;
/** Searches stop after 30 s unless a longer timeout is configured. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 30_000;

const parameters = z.object({
  pattern: z.string().describe("Regular expression to search file contents for, e.g. 'function\\s+\\w+'."),
  dir_path: z
    .string()
    .optional()
    .describe(
      'Directory (or file) to search, absolute or relative to the working directory. Default: the working directory.',
    ),
  include_pattern: z
    .string()
    .optional()
    .describe("Glob the files must match, e.g. '*.ts' or 'src/**/*.{js,jsx}'."),
  exclude_pattern: z.string().optional().describe('Regular expression; matching lines are left out.'),
  names_only: z.boolean().optional().describe('Return only the paths of files with matches.'),
  case_sensitive: z.boolean().optional().describe('Match case-sensitively (default false).'),
  fixed_strings: z
    .boolean()
    .optional()
    .describe('Treat pattern as a literal string, not a regular expression.'),
  context: z.number().int().min(0).optional().describe('Lines to show before and after each match.'),
  after: z.number().int().min(0).optional().describe('Lines to show after each match (overrides context).'),
  before: z.number().int().min(0).optional().describe('Lines to show before each match (overrides context).'),
  no_ignore: z
    .boolean()
    .optional()
    .describe('Also search files that .gitignore, .geminiignore/.kodoignore and the default excludes skip.'),
  max_matches_per_file: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Stop after this many matches in one file.'),
  total_max_matches: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Stop after this many matches in total (default ${DEFAULT_TOTAL_MAX_MATCHES}).`),
});

type Params = z.infer<typeof parameters>;

export interface GrepToolOptions {
  /** A fixed backend, or how to choose one per call. Default: ripgrep → git grep → JavaScript. */
  backend?: GrepBackend | GrepBackendChoice;
  /** Search timeout (`tools` settings may raise it). Default 30 s. */
  timeoutMs?: number;
}

/** `grep_search`; each tool instance remembers which ripgrep binary works. */
export function createGrepTool(options: GrepToolOptions = {}): Tool {
  const backend = options.backend ?? autoGrepBackends();
  const choice: GrepBackendChoice = 'search' in backend ? { pick: async () => backend } : backend;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  return defineTool({
    name: 'grep_search',
    displayName: 'SearchText',
    kind: 'search',
    description:
      'Searches file contents for a regular expression and returns the matching lines with their files ' +
      'and line numbers (at most 100 matches unless total_max_matches says otherwise). When only 1-3 ' +
      'lines match, the lines around them are shown too. Skips binary files, node_modules, .git and ' +
      'files excluded by .gitignore, .geminiignore or .kodoignore.',
    parameters,
    validate: validateGrep,
    describe(params, ctx) {
      const where = params.dir_path
        ? ` in ${ctx.workspace.display(ctx.workspace.absolute(params.dir_path))}`
        : '';
      const filter = params.include_pattern ? ` (${params.include_pattern})` : '';
      return `'${params.pattern}'${where}${filter}`;
    },
    locations: (params, ctx) => [ctx.workspace.absolute(params.dir_path ?? '.')],
    execute: (params, ctx, { signal }) => grepExecute({ params, ctx, signal, choice, timeoutMs }),
  });
}

export const grepTool = createGrepTool();

function validateGrep(params: Params, ctx: ToolContext): ToolError | undefined {
  if (params.pattern === '') {
    return { type: 'invalid_tool_params', message: "The 'pattern' parameter cannot be empty." };
  }
  for (const [pattern, literal] of [
    [params.pattern, params.fixed_strings ?? false],
    [params.exclude_pattern, false],
  ] as const) {
    if (pattern === undefined || literal) continue;
    try {
      queryRegExp({ pattern, caseSensitive: true, fixedStrings: false });
    } catch (error) {
      return {
        type: 'invalid_tool_params',
        message: `Invalid regular expression pattern provided: ${pattern}. Error: ${errorMessage(error)}`,
      };
    }
  }
  if (params.exclude_pattern !== undefined) {
    // Run by kodo itself on every matching line: it must compile for the linear-time engine.
    try {
      compileRegex(params.exclude_pattern, { caseSensitive: true });
    } catch (error) {
      return {
        type: 'invalid_tool_params',
        message: `Invalid exclude_pattern: ${params.exclude_pattern}. Error: ${errorMessage(error)}`,
      };
    }
  }
  const resolved = ctx.workspace.resolvePath(params.dir_path ?? '.', { access: 'read' });
  if (!resolved.ok) return resolved.error;
  try {
    statSync(resolved.path);
  } catch {
    return { type: 'file_not_found', message: `Path does not exist: ${resolved.path}` };
  }
  return undefined;
}

interface GrepCall {
  params: Params;
  ctx: ToolContext;
  signal: AbortSignal;
  choice: GrepBackendChoice;
  timeoutMs: number;
}

async function grepExecute({ params, ctx, signal, choice, timeoutMs }: GrepCall): Promise<ToolResult> {
  const resolved = ctx.workspace.resolvePath(params.dir_path ?? '.', { access: 'read' });
  if (!resolved.ok) return failureFrom(resolved.error);
  const searchPath = resolved.path;
  const maxTotal = params.total_max_matches ?? DEFAULT_TOTAL_MAX_MATCHES;
  const timeout = AbortSignal.timeout(timeoutMs);
  const searchSignal = AbortSignal.any([signal, timeout]);
  let matches: GrepMatch[];
  try {
    const backend = await choice.pick({
      searchPath,
      env: ctx.env,
      signal: searchSignal,
      useRipgrep: ctx.useRipgrep !== false,
    });
    matches = await backend.search({
      searchPath,
      workspaceRoot: ctx.workspace.roots.find((root) => isInside(root, searchPath)) ?? searchPath,
      pattern: params.pattern,
      caseSensitive: params.case_sensitive ?? false,
      fixedStrings: params.fixed_strings ?? false,
      excludePattern: params.exclude_pattern,
      include: params.include_pattern,
      respectIgnoreFiles: !(params.no_ignore ?? false),
      filtering: fileFilteringOf(ctx),
      maxTotal,
      // With names_only one match proves a file matches; reading on would only cost time.
      maxPerFile: params.names_only ? 1 : params.max_matches_per_file,
      env: ctx.env,
      signal: searchSignal,
    });
  } catch (error) {
    if (signal.aborted) return cancelledSearch(params.pattern);
    if (timeout.aborted) {
      const message = `Operation timed out after ${timeoutMs}ms. In large repositories, consider narrowing your search scope by specifying a 'dir_path' or an 'include_pattern'.`;
      return failure('grep_execution_error', message);
    }
    // Reported as an ordinary result: the model reads it and can try again.
    const text = `Error during grep search operation: ${errorMessage(error)}`;
    return { llmContent: text, returnDisplay: text };
  }
  // Every backend's results, by real path: a symlinked directory inside may lead outside.
  const inside = ctx.workspace.realPathFilter({ access: 'read' });
  matches = matches.filter((match) => inside(match.filePath));
  const window = params.names_only ? { before: 0, after: 0 } : contextWindow(params, matches.length);
  let lines: GrepLine[];
  try {
    lines = await withContext(matches, window, signal);
  } catch (error) {
    if (signal.aborted) return cancelledSearch(params.pattern);
    throw error;
  }
  return formatGrepReport({
    pattern: params.pattern,
    dirLabel: params.dir_path ?? '.',
    include: params.include_pattern,
    searchPath,
    maxTotal,
    namesOnly: params.names_only ?? false,
    matchCount: matches.length,
    lines,
  });
}

/**
 * Explicit `context`/`before`/`after` (the latter two win, as in grep), or, when none was given
 * and only 1-3 lines matched, automatic context: a few hits are most useful with their
 * surroundings, and the model is spared a read_file call.
 */
function contextWindow(params: Params, matchCount: number): ContextWindow {
  if (params.context !== undefined || params.before !== undefined || params.after !== undefined) {
    return { before: params.before ?? params.context ?? 0, after: params.after ?? params.context ?? 0 };
  }
  if (matchCount === 1) return { before: 50, after: 50 };
  if (matchCount >= 2 && matchCount <= 3) return { before: 15, after: 15 };
  return { before: 0, after: 0 };
}

/** Esc during a search: it stopped (rg killed, the fallback between lines) and says so. */
function cancelledSearch(pattern: string): ToolResult {
  const message = `Search for "${pattern}" was cancelled.`;
  return { llmContent: message, returnDisplay: message };
}
