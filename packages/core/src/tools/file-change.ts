/**
 * What `write_file` and `replace` share around working out a file's new text: reading the target,
 * the approval prompt with the change as a diff, the write in the file's own encoding and line
 * endings, and the result with the diff and its stats. Each tool only works out the change.
 */
import { diffStat, unifiedDiff } from './diff';
import {
  defaultLineEnding,
  type ExistingText,
  encodeText,
  type LineEnding,
  readExistingText,
  type TextEncodingName,
  UnencodableTextError,
  writeErrorType,
  writeTextFile,
} from './file-text';
import { errnoCode, failure, failureFrom } from './results';
import type { ConfirmationDetails, ExecuteOptions, ToolContextFor, ToolError, ToolResult } from './tool';

/** What the file tools use: the workspace and where text is read and written. */
export type FileToolContext = ToolContextFor<'workspace' | 'textFiles'>;

export interface TextFormat {
  encoding: TextEncodingName;
  lineEnding: LineEnding;
  /** The existing file's text as read, so lines the change keeps keep their own endings. */
  originalRaw?: string;
}

/** A change to one file, ready to approve and write. */
export interface FileChange {
  abs: string;
  isNewFile: boolean;
  /** Current and new content, LF-normalised (line endings are applied when writing). */
  oldText: string;
  newText: string;
  format: TextFormat;
}

export function isToolError(value: object): value is ToolError {
  return 'type' in value;
}

/**
 * The file a call names, resolved, its text (undefined when there is no such file yet) and the
 * format to write it in; or the error for the model, `readFailed` wording a failure to read it.
 */
export async function readTarget(
  filePath: string,
  ctx: FileToolContext,
  readFailed: (abs: string, error: unknown) => ToolError,
  options: { refuseBinary?: boolean } = {},
): Promise<{ abs: string; existing: ExistingText | undefined; format: TextFormat } | ToolError> {
  const resolved = ctx.workspace.resolvePath(filePath);
  if (!resolved.ok) return resolved.error;
  const abs = resolved.path;
  let existing: ExistingText | undefined;
  try {
    // An editor's file access (ACP) serves its own files; the disk the rest.
    existing = ctx.textFiles?.handles(abs)
      ? await ctx.textFiles.read(abs)
      : await readExistingText(abs, ctx.workspace);
  } catch (error) {
    if (errnoCode(error) === 'EISDIR') {
      return { type: 'target_is_directory', message: `Path is a directory, not a file: ${abs}` };
    }
    if (errnoCode(error) === 'EWORKSPACEESCAPE') {
      return { type: 'path_not_in_workspace', message: (error as Error).message };
    }
    return readFailed(abs, error);
  }
  if (existing?.binary && options.refuseBinary) {
    return {
      type: 'binary_file',
      message: `Cannot edit binary file: ${abs}. Text replacement would corrupt its bytes; it was left unchanged.`,
    };
  }
  return { abs, existing, format: formatFor(existing) };
}

/**
 * An existing file keeps its encoding and each line's ending; a new one (or a binary file being
 * overwritten whole) gets UTF-8 and the OS default.
 */
function formatFor(existing: ExistingText | undefined): TextFormat {
  return existing && !existing.binary
    ? { encoding: existing.encoding, lineEnding: existing.lineEnding, originalRaw: existing.raw }
    : { encoding: 'utf8', lineEnding: defaultLineEnding() };
}

/** The error for new text the file's encoding cannot hold, found before anyone is asked. */
export function encodingProblem(change: FileChange): ToolError | undefined {
  if (change.format.encoding !== 'latin1') return undefined;
  try {
    encodeText(change.newText, 'latin1');
    return undefined;
  } catch (error) {
    if (!(error instanceof UnencodableTextError)) throw error;
    return { type: 'invalid_tool_params', message: `${error.message} (${change.abs})` };
  }
}

export interface ChangeReport<C extends FileChange> {
  /** What the model is told once the file is written. */
  success(change: C): string;
  /** The message of a failed write. */
  writeFailed(change: C, error: unknown): string;
}

/**
 * The hooks of a tool that changes the file named by `file_path`, given how it works out the
 * change: `describe` and `locations` name the file; the approval prompt shows the change as a
 * diff (a generic prompt for an error, which execution then reports); execution writes it in the
 * file's own encoding and line endings and reports the diff and its stats.
 */
export function fileChangeHooks<
  Params extends { file_path: string },
  C extends FileChange,
  Ctx extends FileToolContext,
>(
  prepare: (params: Params, ctx: Ctx, signal: AbortSignal) => Promise<C | ToolError>,
  options: { title: string; report: ChangeReport<C> },
) {
  const checked = async (params: Params, ctx: Ctx, signal: AbortSignal): Promise<C | ToolError> => {
    const prepared = await prepare(params, ctx, signal);
    return isToolError(prepared) ? prepared : (encodingProblem(prepared) ?? prepared);
  };
  return {
    describe: (params: Params, ctx: Ctx) => ctx.workspace.display(ctx.workspace.absolute(params.file_path)),
    locations: (params: Params, ctx: Ctx) => [ctx.workspace.absolute(params.file_path)],
    async confirmationDetails(
      params: Params,
      ctx: Ctx,
      signal: AbortSignal,
    ): Promise<ConfirmationDetails | undefined> {
      const prepared = await checked(params, ctx, signal);
      if (isToolError(prepared)) return undefined;
      const rel = ctx.workspace.display(prepared.abs);
      return {
        kind: 'edit',
        title: `${options.title}: ${rel}`,
        filePath: prepared.abs,
        diff: unifiedDiff(rel, prepared.oldText, prepared.newText),
        newContent: prepared.newText,
        oldContent: prepared.isNewFile ? null : prepared.oldText,
      };
    },
    async execute(params: Params, ctx: Ctx, execution: ExecuteOptions): Promise<ToolResult> {
      const prepared = await checked(params, ctx, execution.signal);
      if (isToolError(prepared)) return failureFrom(prepared);
      const { abs, oldText, newText } = prepared;
      try {
        await writeFileChange(prepared, ctx);
      } catch (error) {
        if (errnoCode(error) === 'EWORKSPACEESCAPE') {
          return failure('path_not_in_workspace', (error as Error).message);
        }
        return failure(writeErrorType(error), options.report.writeFailed(prepared, error));
      }
      return {
        llmContent: options.report.success(prepared),
        returnDisplay: unifiedDiff(ctx.workspace.display(abs), oldText, newText),
        diffStat: diffStat(oldText, newText),
        fileDiff: { path: abs, oldText: prepared.isNewFile ? null : oldText, newText },
      };
    },
  };
}

/**
 * Writes a change's new text in the file's format: through the editor's file access for the
 * paths it serves (ACP), otherwise atomically to disk, through a directory checked to lie in the
 * workspace. Throws the file system's error (`EWORKSPACEESCAPE` for a path that led outside).
 */
export async function writeFileChange(change: FileChange, ctx: FileToolContext): Promise<void> {
  if (ctx.textFiles?.handles(change.abs)) {
    await ctx.textFiles.write(change.abs, change.newText, change.format);
    return;
  }
  const pendingDir = ctx.workspace.tempDir;
  await writeTextFile(change.abs, change.newText, change.format, {
    inside: ctx.workspace,
    ...(pendingDir ? { pendingDir } : {}),
  });
}
