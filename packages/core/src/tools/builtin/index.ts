import type { Tool } from '../tool';
import { globTool } from './glob';
import { createGrepTool } from './grep';
import { listDirectoryTool } from './list-directory';
import { readFileTool } from './read-file';
import { replaceTool } from './replace';
import { shellTool } from './shell';
import { writeFileTool } from './write-file';

export { globTool } from './glob';
export { createGrepTool, DEFAULT_TOTAL_MAX_MATCHES, grepTool } from './grep';
export { listDirectoryTool } from './list-directory';
export { DEFAULT_MAX_LINES, MAX_LINE_LENGTH, readFileTool } from './read-file';
export { replaceTool } from './replace';
export { MAX_SHELL_OUTPUT_CHARS, rootCommands, shellTool } from './shell';
export { writeFileTool } from './write-file';

/** The built-in tools every session starts with (a fresh grep backend per call). */
export function builtinTools(): Tool[] {
  return [readFileTool, writeFileTool, replaceTool, listDirectoryTool, globTool, createGrepTool(), shellTool];
}
