import { statSync } from 'node:fs';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { updatedSnippet } from '../diff';
import { findPlaceholders } from '../edit/placeholders';
import { WriteContentUnescaper } from '../edit/write-unescape';
import { type ChangeReport, type FileChange, fileChangeHooks, isToolError, readTarget } from '../file-change';
import { toLf, writeErrorType } from '../file-text';
import { resolveFileParam } from '../results';
import type { Tool, ToolContextFor, ToolError } from '../tool';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['workspace', 'textFiles', 'model', 'llmEditCorrection'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

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

const WRITE_REPORT: ChangeReport<FileChange> = {
  success: ({ abs, isNewFile, oldText, newText }) =>
    isNewFile
      ? `Successfully created and wrote to new file: ${abs}. Here is the updated code:\n${newText}`
      : `Successfully overwrote file: ${abs}. Here is the updated code:\n${updatedSnippet(oldText, newText)}`,
  writeFailed: ({ abs }, error) => `Error writing to file ${abs}: ${errorMessage(error)}`,
};

/**
 * The `write_file` tool. Each instance keeps the over-escaping verdicts for its own invocations
 * (see `WriteContentUnescaper`), so the content the person approves is the content written.
 */
export function createWriteFileTool(): Tool {
  const unescaper = new WriteContentUnescaper();
  return defineTool({
    name: 'write_file',
    uses: USES,
    displayName: 'WriteFile',
    kind: 'edit',
    description:
      'Writes content to a file, replacing whatever it held; creates the file and its parent directories ' +
      'if needed. Always give the complete content: placeholders such as "rest of code ..." would be ' +
      'written literally. The user may be asked to approve the change.',
    parameters,
    validate: validateWrite,
    ...fileChangeHooks(
      (params: Params, ctx: Ctx, signal: AbortSignal) => prepareWrite(params, ctx, { signal, unescaper }),
      {
        title: 'Confirm Write',
        report: WRITE_REPORT,
      },
    ),
  });
}

export const writeFileTool = createWriteFileTool();

function validateWrite(params: Params, ctx: Ctx): ToolError | undefined {
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

async function prepareWrite(params: Params, ctx: Ctx, deps: WriteDeps): Promise<FileChange | ToolError> {
  const target = await readTarget(params.file_path, ctx, (abs, error) => ({
    type: writeErrorType(error),
    message: `Error reading existing file ${abs}: ${errorMessage(error)}`,
  }));
  if (isToolError(target)) return target;
  const { abs, existing, format } = target;
  // Over-escaped content (`\n` for line breaks) is unescaped only when edit/write-unescape.ts allows it.
  const content = await deps.unescaper.contentFor(
    params,
    { filePath: abs, content: params.content },
    ctx,
    deps.signal,
  );
  const oldText = existing?.text ?? '';
  return { abs, isNewFile: !existing, oldText, newText: toLf(content), format };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
