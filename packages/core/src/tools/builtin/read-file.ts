import { stat } from 'node:fs/promises';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { fileFilteringOf, ignoreFilterOptions } from '../file-filtering';
import { classifyFile, type MediaKind } from '../file-kind';
import { decodeText, splitLines } from '../file-text';
import { IgnoreFilter } from '../ignore-filter';
import { errnoCode, failure, failureFrom } from '../results';
import type { ToolContextFor, ToolError, ToolResult } from '../tool';
import { isInside } from '../workspace';
import { type RealPathCheck, readFileInside, readHeadInside } from '../workspace-fs';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['workspace', 'textFiles', 'fileFiltering'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

/** Lines returned when the model gives no `end_line`. */
export const DEFAULT_MAX_LINES = 2000;
/** Longer lines are cut so one minified line cannot flood the context. */
export const MAX_LINE_LENGTH = 2000;
const MEGABYTE = 1024 * 1024;
const MAX_FILE_BYTES = 20 * MEGABYTE;
const MAX_SVG_BYTES = MEGABYTE;
/**
 * Media larger than this is refused: inline data travels base64-encoded (4/3 the size) inside
 * one request, and an oversized request fails every later turn of the session, not just this
 * call. 10 MB leaves room for the rest of the conversation under the API's 20 MB request limit.
 */
export const MAX_INLINE_MEDIA_BYTES = 10 * MEGABYTE;
const LINE_CUT_SUFFIX = '... [truncated]';

const parameters = z.object({
  file_path: z.string().describe('Path of the file to read, absolute or relative to the working directory.'),
  start_line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('1-based line to start reading from. Omit to read from the start of the file.'),
  end_line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('1-based line to stop at (inclusive). Omit to read up to 2000 lines from start_line.'),
});

type Params = z.infer<typeof parameters>;

export const readFileTool = defineTool({
  name: 'read_file',
  uses: USES,
  displayName: 'ReadFile',
  kind: 'read',
  description:
    'Reads a file and returns its text. Long files are returned 2000 lines at a time: the output then ' +
    "says which lines it shows and how to read more with 'start_line' and 'end_line'. Lines longer than " +
    '2000 characters are cut. Images (PNG, JPEG, GIF, WEBP, BMP), PDF, audio and video files are ' +
    'returned as attachments; other binary files are not shown.',
  parameters,
  validate(params, ctx) {
    if (params.file_path.trim() === '') {
      return { type: 'invalid_tool_params', message: "The 'file_path' parameter must be non-empty." };
    }
    if (
      params.start_line !== undefined &&
      params.end_line !== undefined &&
      params.start_line > params.end_line
    ) {
      return { type: 'invalid_tool_params', message: 'start_line cannot be greater than end_line' };
    }
    const resolved = ctx.workspace.resolvePath(params.file_path, { access: 'read' });
    if (!resolved.ok) return resolved.error;
    return ignoredPathError(resolved.path, ctx);
  },
  describe(params, ctx) {
    const path = ctx.workspace.display(ctx.workspace.absolute(params.file_path));
    if (params.start_line === undefined && params.end_line === undefined) return path;
    return `${path} (lines ${params.start_line ?? 1}-${params.end_line ?? 'end'})`;
  },
  locations: (params, ctx) => [ctx.workspace.absolute(params.file_path)],
  execute: (params, ctx) => readFileExecute(params, ctx),
});

async function readFileExecute(params: Params, ctx: Ctx): Promise<ToolResult> {
  // Checked again: a symlink may have changed since validation.
  const resolved = ctx.workspace.resolvePath(params.file_path, { access: 'read' });
  if (!resolved.ok) return failureFrom(resolved.error);
  const abs = resolved.path;

  let size: number;
  try {
    const info = await stat(abs);
    if (info.isDirectory()) return failure('target_is_directory', `Path is a directory, not a file: ${abs}`);
    size = info.size;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return failure('file_not_found', `File not found: ${abs}`);
    return readError(abs, error);
  }
  if (size > MAX_FILE_BYTES) {
    const megabytes = (size / MEGABYTE).toFixed(2);
    return failure('file_too_large', `File size exceeds the 20MB limit: ${abs} (${megabytes}MB)`);
  }

  const rel = ctx.workspace.display(abs);
  try {
    const { kind, mimeType } = classifyFile(abs, await readHeadInside(abs, ctx.workspace.readAccess()));
    if (kind === 'svg' && size > MAX_SVG_BYTES) {
      return plain(`Cannot display content of SVG file larger than 1MB: ${rel}`);
    }
    if (kind === 'binary') return plain(`Cannot display content of binary file: ${rel}`);
    if (kind !== 'text' && kind !== 'svg') {
      return await mediaResult(
        { kind, mimeType: mimeType ?? 'application/octet-stream', size },
        { abs, rel, workspace: ctx.workspace.readAccess() },
      );
    }
    // An editor's file access (ACP) shows its unsaved buffer; otherwise read through a
    // descriptor checked to lie inside (the path may have been swapped since).
    const text = ctx.textFiles?.handles(abs)
      ? ((await ctx.textFiles.read(abs))?.text ?? '')
      : decodeText(await readFileInside(abs, ctx.workspace.readAccess())).text;
    return textResult(text, params, { abs, rel });
  } catch (error) {
    return readError(abs, error);
  }
}

/**
 * A path the ignore files exclude is refused, as in Gemini CLI, so the model
 * does not read what the project marked as off limits (generated output, `.env` secrets…).
 */
function ignoredPathError(abs: string, ctx: Ctx): ToolError | undefined {
  const root = ctx.workspace.roots.find((candidate) => isInside(candidate, abs));
  if (root === undefined) return undefined; // The project temp dir has no ignore files.
  const filter = new IgnoreFilter(ignoreFilterOptions(root, fileFilteringOf(ctx)));
  if (!filter.isIgnored(abs, false)) return undefined;
  return {
    type: 'invalid_tool_params',
    message: `File path '${abs}' is ignored by configured ignore patterns.`,
  };
}

/** Images, PDF, audio and video go to the model as inline data after a one-line description. */
async function mediaResult(
  file: { kind: MediaKind; mimeType: string; size: number },
  paths: { abs: string; rel: string; workspace: RealPathCheck },
): Promise<ToolResult> {
  if (file.size > MAX_INLINE_MEDIA_BYTES) {
    const megabytes = (file.size / MEGABYTE).toFixed(2);
    const limit = MAX_INLINE_MEDIA_BYTES / MEGABYTE;
    const message = `File size exceeds the ${limit}MB limit for ${file.kind} files: ${paths.abs} (${megabytes}MB)`;
    return failure('file_too_large', message);
  }
  const data = (await readFileInside(paths.abs, paths.workspace)).toString('base64');
  const noun = file.kind === 'pdf' ? 'PDF' : file.kind;
  return {
    llmContent: [
      { text: `Content of ${noun} file ${paths.rel} (${file.mimeType}, ${file.size} bytes) is attached.` },
      { inlineData: { mimeType: file.mimeType, data } },
    ],
    returnDisplay: `Read ${noun} file: ${paths.rel}`,
  };
}

function textResult(text: string, params: Params, paths: { abs: string; rel: string }): ToolResult {
  const lines = splitLines(text);
  const total = lines.length;
  const start = params.start_line ?? 1;
  if (start > Math.max(total, 1)) {
    const message = `start_line ${start} is beyond the end of the file: ${paths.abs} has ${total} lines.`;
    return failure('invalid_tool_params', message);
  }
  const end = Math.min(params.end_line ?? start + DEFAULT_MAX_LINES - 1, total);
  let anyLineCut = false;
  const shown = lines.slice(start - 1, end).map((line) => {
    const cut = cutLine(line);
    if (cut !== line) anyLineCut = true;
    return cut;
  });
  const content = shown.join('\n');
  const truncated = start > 1 || end < total || anyLineCut;
  if (!truncated) return { llmContent: content, returnDisplay: '' };
  const header =
    '\nIMPORTANT: The file content has been truncated.\n' +
    `Status: Showing lines ${start}-${end} of ${total} total lines.\n` +
    "Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a " +
    "subsequent 'read_file' call. For example, to read the next section of the file, use start_line: " +
    `${end + 1}.\n\n--- FILE CONTENT (truncated) ---\n`;
  return {
    llmContent: header + content,
    returnDisplay: `Read lines ${start}-${end} of ${total} from ${paths.rel}`,
  };
}

function cutLine(line: string): string {
  if (line.length <= MAX_LINE_LENGTH) return line;
  let end = MAX_LINE_LENGTH;
  // Never split a surrogate pair: that would leave an invalid character before the suffix.
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return line.slice(0, end) + LINE_CUT_SUFFIX;
}

function plain(text: string): ToolResult {
  return { llmContent: text, returnDisplay: text };
}

function readError(abs: string, error: unknown): ToolResult {
  if (errnoCode(error) === 'EWORKSPACEESCAPE') return failure('path_not_in_workspace', errorMessage(error));
  return failure('read_content_failure', `Error reading file ${abs}: ${errorMessage(error)}`);
}
