import { statSync } from 'node:fs';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { diffStat, unifiedDiff, updatedSnippet } from '../diff';
import { findPlaceholders } from '../edit/placeholders';
import { WriteContentUnescaper } from '../edit/write-unescape';
import {
  defaultLineEnding,
  type ExistingText,
  type LineEnding,
  readExistingText,
  type TextEncodingName,
  toLf,
  writeErrorType,
  writeTextFile,
} from '../file-text';
import { errnoCode, failure, failureFrom, resolveFileParam } from '../results';
import type { ConfirmationDetails, Tool, ToolContext, ToolError, ToolResult } from '../tool';

const parameters = z.object({
  file_path: z.string().describe('Path of the file to write, absolute or relative to the working directory.'),
  content: z.string().describe('The complete new content of the file.'),
});

type Params = z.infer<typeof parameters>;

/** What preparing a write needs besides the arguments: the call's signal and the unescape verdicts. */
interface WriteDeps {
  signal: AbortSignal;
  unescaper: WriteContentUnescaper;
}

/**
 * The `write_file` tool. Each instance keeps the over-escaping verdicts for its own invocations
 * (see `WriteContentUnescaper`), so the content the person approves is the content written.
 */
export function createWriteFileTool(): Tool {
  const unescaper = new WriteContentUnescaper();
  return defineTool({
    name: 'write_file',
    displayName: 'WriteFile',
    kind: 'edit',
    description:
      'Writes content to a file, replacing whatever it held; creates the file and its parent directories ' +
      'if needed. Always give the complete content: placeholders such as "rest of code ..." would be ' +
      'written literally. The user may be asked to approve the change.',
    parameters,
    validate: validateWrite,
    describe: (params, ctx) => ctx.workspace.display(ctx.workspace.absolute(params.file_path)),
    locations: (params, ctx) => [ctx.workspace.absolute(params.file_path)],
    confirmationDetails: (params, ctx, signal) => writeConfirmation(params, ctx, { signal, unescaper }),
    execute: (params, ctx, execution) => writeExecute(params, ctx, { signal: execution.signal, unescaper }),
  });
}

export const writeFileTool = createWriteFileTool();

function validateWrite(params: Params, ctx: ToolContext): ToolError | undefined {
  const resolved = resolveFileParam(params.file_path, ctx);
  if (!resolved.ok) return resolved.error;
  if (isDirectory(resolved.path)) {
    return { type: 'invalid_tool_params', message: `Path is a directory, not a file: ${resolved.path}` };
  }
  if (findPlaceholders(params.content).length > 0) {
    return {
      type: 'invalid_tool_params',
      message:
        "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.",
    };
  }
  return undefined;
}

interface PreparedWrite {
  abs: string;
  existing: ExistingText | undefined;
  /** New content, LF-normalised (line endings are applied when writing). */
  newText: string;
  format: { encoding: TextEncodingName; lineEnding: LineEnding };
}

async function prepareWrite(
  params: Params,
  ctx: ToolContext,
  deps: WriteDeps,
): Promise<PreparedWrite | ToolError> {
  const resolved = ctx.workspace.resolvePath(params.file_path);
  if (!resolved.ok) return resolved.error;
  const abs = resolved.path;
  let existing: ExistingText | undefined;
  try {
    existing = await readExistingText(abs);
  } catch (error) {
    if (errnoCode(error) === 'EISDIR') {
      return { type: 'target_is_directory', message: `Path is a directory, not a file: ${abs}` };
    }
    return {
      type: writeErrorType(error),
      message: `Error reading existing file ${abs}: ${errorMessage(error)}`,
    };
  }
  // An existing file keeps its encoding and line endings; a new one gets UTF-8 and the OS default.
  const format = existing
    ? { encoding: existing.encoding, lineEnding: existing.lineEnding }
    : { encoding: 'utf8' as const, lineEnding: defaultLineEnding() };
  // Over-escaped content (`\n` for line breaks) is unescaped only when §4.2 allows it.
  const content = await deps.unescaper.contentFor(
    params,
    { filePath: abs, content: params.content },
    ctx,
    deps.signal,
  );
  return { abs, existing, newText: toLf(content), format };
}

async function writeConfirmation(
  params: Params,
  ctx: ToolContext,
  deps: WriteDeps,
): Promise<ConfirmationDetails | undefined> {
  const prepared = await prepareWrite(params, ctx, deps);
  // Without a diff the scheduler shows a generic prompt; execution then reports the error.
  if ('type' in prepared) return undefined;
  const rel = ctx.workspace.display(prepared.abs);
  return {
    kind: 'edit',
    title: `Confirm Write: ${rel}`,
    filePath: prepared.abs,
    diff: unifiedDiff(rel, prepared.existing?.text ?? '', prepared.newText),
    newContent: prepared.newText,
  };
}

async function writeExecute(params: Params, ctx: ToolContext, deps: WriteDeps): Promise<ToolResult> {
  const prepared = await prepareWrite(params, ctx, deps);
  if ('type' in prepared) return failureFrom(prepared);
  const { abs, existing, newText } = prepared;
  try {
    await writeTextFile(abs, newText, prepared.format);
  } catch (error) {
    return failure(writeErrorType(error), `Error writing to file ${abs}: ${errorMessage(error)}`);
  }
  const oldText = existing?.text ?? '';
  const llmContent = existing
    ? `Successfully overwrote file: ${abs}. Here is the updated code:\n${updatedSnippet(oldText, newText)}`
    : `Successfully created and wrote to new file: ${abs}. Here is the updated code:\n${newText}`;
  return {
    llmContent,
    returnDisplay: unifiedDiff(ctx.workspace.display(abs), oldText, newText),
    diffStat: diffStat(oldText, newText),
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
