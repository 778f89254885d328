import type { ToolContextFor, ToolError, ToolErrorType, ToolResult } from './tool';

/** Small helpers the built-in tools share for building results. */

export function failure(type: ToolErrorType, message: string): ToolResult {
  return { llmContent: message, returnDisplay: message, error: { type, message } };
}

export function failureFrom(error: ToolError): ToolResult {
  return failure(error.type, error.message);
}

export function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/**
 * The `file_path` argument of a file tool, checked: non-empty and inside the workspace (symlinks
 * followed). One place for the rule every file tool shares.
 */
export function resolveFileParam(
  filePath: string,
  ctx: ToolContextFor<'workspace'>,
): { ok: true; path: string } | { ok: false; error: ToolError } {
  if (filePath.trim() === '') {
    return {
      ok: false,
      error: { type: 'invalid_tool_params', message: "The 'file_path' parameter must be non-empty." },
    };
  }
  return ctx.workspace.resolvePath(filePath);
}
