import { statSync } from 'node:fs';
import { basename, relative, sep } from 'node:path';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { type GrepBackend, type GrepMatch, queryRegExp } from '../grep/backend';
import { JsGrepBackend } from '../grep/js-backend';
import { failure, failureFrom } from '../results';
import type { Tool, ToolContext, ToolError, ToolResult } from '../tool';
import { isInside } from '../workspace';

export const DEFAULT_TOTAL_MAX_MATCHES = 100;
const SEARCH_TIMEOUT_MS = 30_000;
const MAX_LINE_LENGTH = 2000;

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
  no_ignore: z
    .boolean()
    .optional()
    .describe('Also search files that .gitignore and the default excludes skip.'),
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

/** `grep_search` over the given backend (the pure-JS one unless another is passed). */
export function createGrepTool(backend: GrepBackend = new JsGrepBackend()): Tool {
  return defineTool({
    name: 'grep_search',
    displayName: 'SearchText',
    kind: 'search',
    description:
      'Searches file contents for a regular expression and returns the matching lines with their files ' +
      'and line numbers (at most 100 matches unless total_max_matches says otherwise). Skips binary ' +
      'files, node_modules, .git and files excluded by .gitignore.',
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
    execute: (params, ctx, options) => grepExecute(backend, params, ctx, options.signal),
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
  const resolved = ctx.workspace.resolvePath(params.dir_path ?? '.');
  if (!resolved.ok) return resolved.error;
  try {
    statSync(resolved.path);
  } catch {
    return { type: 'file_not_found', message: `Path does not exist: ${resolved.path}` };
  }
  return undefined;
}

async function grepExecute(
  backend: GrepBackend,
  params: Params,
  ctx: ToolContext,
  signal: AbortSignal,
): Promise<ToolResult> {
  const resolved = ctx.workspace.resolvePath(params.dir_path ?? '.');
  if (!resolved.ok) return failureFrom(resolved.error);
  const searchPath = resolved.path;
  const maxTotal = params.total_max_matches ?? DEFAULT_TOTAL_MAX_MATCHES;
  const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS);
  let matches: GrepMatch[];
  try {
    matches = await backend.search({
      searchPath,
      workspaceRoot: ctx.workspace.roots.find((root) => isInside(root, searchPath)) ?? searchPath,
      pattern: params.pattern,
      caseSensitive: params.case_sensitive ?? false,
      fixedStrings: params.fixed_strings ?? false,
      excludePattern: params.exclude_pattern,
      include: params.include_pattern,
      respectIgnoreFiles: !(params.no_ignore ?? false),
      maxTotal,
      // With names_only one match proves a file matches; reading on would only cost time.
      maxPerFile: params.names_only ? 1 : params.max_matches_per_file,
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    if (timeout.aborted && !signal.aborted) {
      const message = `Operation timed out after ${SEARCH_TIMEOUT_MS}ms. In large repositories, consider narrowing your search scope by specifying a 'dir_path' or an 'include_pattern'.`;
      return failure('grep_execution_error', message);
    }
    // Reported as an ordinary result (reference §3.6): the model reads it and can try again.
    const text = `Error during grep search operation: ${errorMessage(error)}`;
    return { llmContent: text, returnDisplay: text };
  }
  return formatMatches(params, searchPath, matches, maxTotal);
}

function formatMatches(
  params: Params,
  searchPath: string,
  matches: GrepMatch[],
  maxTotal: number,
): ToolResult {
  const header = `for pattern "${params.pattern}" in path "${params.dir_path ?? '.'}"`;
  const filter = params.include_pattern ? ` (filter: "${params.include_pattern}")` : '';
  if (matches.length === 0) {
    return { llmContent: `No matches found ${header}${filter}.`, returnDisplay: 'No matches found' };
  }
  const limited =
    matches.length >= maxTotal ? ` (results limited to ${maxTotal} matches for performance)` : '';
  const byFile = new Map<string, GrepMatch[]>();
  for (const match of matches) {
    const rel = displayPath(searchPath, match.filePath);
    byFile.set(rel, [...(byFile.get(rel) ?? []), match]);
  }
  if (params.names_only) {
    const files = [...byFile.keys()].sort();
    return {
      llmContent: `Found ${files.length} files with matches ${header}${filter}${limited}:\n${files.join('\n')}`,
      returnDisplay: `Found ${files.length} file(s) with matches`,
    };
  }
  const noun = matches.length === 1 ? 'match' : 'matches';
  let text = `Found ${matches.length} ${noun} ${header}${filter}${limited}:\n---\n`;
  for (const [file, fileMatches] of byFile) {
    text += `File: ${file}\n`;
    for (const match of fileMatches) text += `L${match.lineNumber}: ${cutLine(match.line)}\n`;
    text += '---\n';
  }
  return {
    llmContent: text.trimEnd(),
    returnDisplay: `Found ${matches.length} ${noun}${limited ? ' (limited)' : ''}`,
  };
}

/** Path relative to the searched directory, with `/` separators; the name when a file was searched. */
function displayPath(searchPath: string, filePath: string): string {
  if (filePath === searchPath) return basename(filePath);
  return relative(searchPath, filePath).split(sep).join('/');
}

/** Cut at 2000 characters (code points, so no emoji is split in half). */
function cutLine(line: string): string {
  if (line.length <= MAX_LINE_LENGTH) return line;
  const chars = Array.from(line);
  return chars.length <= MAX_LINE_LENGTH
    ? line
    : `${chars.slice(0, MAX_LINE_LENGTH).join('')}... [truncated]`;
}
