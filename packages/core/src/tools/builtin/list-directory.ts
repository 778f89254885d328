import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { fileFilteringOf, ignoreFilterOptions } from '../file-filtering';
import { IgnoreFilter } from '../ignore-filter';
import { compileGlob, type LinearMatcher } from '../linear-match';
import { errnoCode, failure, failureFrom } from '../results';
import type { ToolContextFor, ToolResult } from '../tool';
import { isInside } from '../workspace';
import { openVerifiedDir } from '../workspace-fs';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['workspace', 'fileFiltering'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

const parameters = z.object({
  dir_path: z.string().describe('Directory to list, absolute or relative to the working directory.'),
  ignore: z
    .array(z.string())
    .optional()
    .describe('Glob patterns matched against entry names (not paths) to leave out, e.g. ["*.log"].'),
  file_filtering_options: z
    .object({
      respect_git_ignore: z
        .boolean()
        .optional()
        .describe('Leave out entries .gitignore excludes (default true).'),
      respect_gemini_ignore: z
        .boolean()
        .optional()
        .describe('Leave out entries .geminiignore or .kodoignore excludes (default true).'),
    })
    .optional()
    .describe('Which ignore files to obey.'),
});

type Params = z.infer<typeof parameters>;

export const listDirectoryTool = defineTool({
  name: 'list_directory',
  uses: USES,
  displayName: 'ReadFolder',
  kind: 'search',
  description:
    'Lists the files and subdirectories directly inside a directory (not recursive), directories first, ' +
    'with file sizes. Entries excluded by .gitignore, .geminiignore/.kodoignore or the ignore patterns ' +
    'are left out and counted.',
  parameters,
  validate(params, ctx) {
    const resolved = ctx.workspace.resolvePath(params.dir_path, { access: 'read' });
    return resolved.ok ? undefined : resolved.error;
  },
  describe: (params, ctx) => ctx.workspace.display(ctx.workspace.absolute(params.dir_path)),
  locations: (params, ctx) => [ctx.workspace.absolute(params.dir_path)],
  execute: (params, ctx) => listExecute(params, ctx),
});

interface Entry {
  name: string;
  isDirectory: boolean;
  size: number;
}

async function listExecute(params: Params, ctx: Ctx): Promise<ToolResult> {
  const resolved = ctx.workspace.resolvePath(params.dir_path, { access: 'read' });
  if (!resolved.ok) return failureFrom(resolved.error);
  const abs = resolved.path;
  try {
    if (!(await stat(abs)).isDirectory()) {
      return failure('path_is_not_a_directory', `Error: Path is not a directory: ${abs}`);
    }
  } catch {
    return failure('file_not_found', `Error: Directory not found or inaccessible: ${abs}`);
  }
  let names: string[];
  try {
    // Read through the opened, checked directory: its path may be swapped for a symlink meanwhile.
    const dir = await openVerifiedDir(abs, ctx.workspace.readAccess());
    try {
      names = await readdir(dir.entry('.'));
    } finally {
      await dir.close();
    }
  } catch (error) {
    if (errnoCode(error) === 'EWORKSPACEESCAPE') return failure('path_not_in_workspace', errorMessage(error));
    return failure('ls_execution_error', `Error listing directory: ${errorMessage(error)}`);
  }
  // Entries that are symlinks leading outside the workspace are not shown.
  const inside = ctx.workspace.realPathFilter({ access: 'read' });
  names = names.filter((name) => inside(join(abs, name)));
  if (names.length === 0) {
    const text = `Directory ${abs} is empty.`;
    return { llmContent: text, returnDisplay: text };
  }

  const isExcluded = exclusionTest(params, ctx, abs);
  const entries: Entry[] = [];
  let ignoredCount = 0;
  for (const entry of await describeEntries(abs, names)) {
    if (isExcluded(entry)) ignoredCount++;
    else entries.push(entry);
  }
  // A collator compares like localeCompare but many times faster on large directories.
  const byName = new Intl.Collator().compare;
  entries.sort((a, b) => Number(b.isDirectory) - Number(a.isDirectory) || byName(a.name, b.name));

  const lines = entries.map((e) => (e.isDirectory ? `[DIR] ${e.name}` : `${e.name} (${e.size} bytes)`));
  let text = `Directory listing for ${abs}:\n${lines.join('\n')}`;
  if (ignoredCount > 0) text += `\n\n(${ignoredCount} ignored)`;
  const display = `Listed ${entries.length} item(s)${ignoredCount > 0 ? ` (${ignoredCount} ignored)` : ''}.`;
  return { llmContent: text, returnDisplay: display };
}

/** Entries stat'ed at once (bounded so a huge directory does not exhaust file descriptors). */
const STAT_BATCH = 64;

async function describeEntries(dir: string, names: string[]): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (let i = 0; i < names.length; i += STAT_BATCH) {
    const batch = await Promise.all(names.slice(i, i + STAT_BATCH).map((name) => describeEntry(dir, name)));
    for (const entry of batch) if (entry) entries.push(entry);
  }
  return entries;
}

/**
 * Follows symlinks for the kind and size; a dangling link is listed as a (link-sized) file. An
 * entry deleted since the directory was read is left out.
 */
async function describeEntry(dir: string, name: string): Promise<Entry | undefined> {
  const full = join(dir, name);
  const info = await stat(full).catch(() => lstat(full).catch(() => undefined));
  return info && { name, isDirectory: info.isDirectory(), size: info.size };
}

function exclusionTest(params: Params, ctx: Ctx, dir: string): (entry: Entry) => boolean {
  const patterns = (params.ignore ?? []).map(basenameGlob);
  const options = ignoreFilterOptions(
    ctx.workspace.roots.find((root) => isInside(root, dir)) ?? dir,
    fileFilteringOf(ctx),
    {
      respectGitIgnore: params.file_filtering_options?.respect_git_ignore,
      respectGeminiIgnore: params.file_filtering_options?.respect_gemini_ignore,
    },
  );
  const respectGitIgnore = options.respectGitIgnore;
  const filter = new IgnoreFilter(options);
  return (entry) => {
    if (patterns.some((pattern) => pattern.test(entry.name))) return true;
    // git never tracks its own directory, so obeying git's rules hides it too.
    if (respectGitIgnore && entry.name === '.git') return true;
    return !filter.inactive && filter.isIgnored(join(dir, entry.name), entry.isDirectory);
  };
}

/**
 * A glob over a single name: `*` any run, `?` one character, `[abc]`/`[!abc]` classes and
 * `{a,b}` alternatives. Names hold no `/`, so `**` is the same as `*`. Matched in linear time
 * (the patterns come from the model; see linear-match.ts); a pattern that does not compile
 * matches its text literally instead of failing the call.
 */
export function basenameGlob(pattern: string): LinearMatcher {
  try {
    return compileGlob(pattern, { caseSensitive: true, segment: true });
  } catch {
    return { test: (name) => name === pattern };
  }
}
