import type { ToolError, ToolErrorType, ToolResult } from './tool';

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
