import type { Tool } from '../tool';
import { applyPatchTool } from './apply-patch';
import { askUserTool } from './ask-user';
import { enterPlanModeTool } from './enter-plan-mode';
import { exitPlanModeTool } from './exit-plan-mode';
import { globTool } from './glob';
import { googleWebSearchTool } from './google-web-search';
import { createGrepTool } from './grep';
import { invokeAgentTool } from './invoke-agent';
import { listBackgroundProcessesTool } from './list-background-processes';
import { listDirectoryTool } from './list-directory';
import { readBackgroundOutputTool } from './read-background-output';
import { readFileTool } from './read-file';
import { replaceTool } from './replace';
import { saveMemoryTool } from './save-memory';
import { shellTool } from './shell';
import { createWebFetchTool } from './web-fetch';
import { webSearchTool } from './web-search';
import { writeFileTool } from './write-file';
import { writeTodosTool } from './write-todos';

export { applyPatchTool, createApplyPatchTool } from './apply-patch';
export { askUserTool } from './ask-user';
export { enterPlanModeTool } from './enter-plan-mode';
export { exitPlanModeTool } from './exit-plan-mode';
export { globTool } from './glob';
export { googleWebSearchTool } from './google-web-search';
export { createGrepTool, DEFAULT_TOTAL_MAX_MATCHES, grepTool } from './grep';
export { invokeAgentTool } from './invoke-agent';
export { listBackgroundProcessesTool } from './list-background-processes';
export { listDirectoryTool } from './list-directory';
export { DEFAULT_BACKGROUND_LINES, readBackgroundOutputTool } from './read-background-output';
export { DEFAULT_MAX_LINES, MAX_LINE_LENGTH, readFileTool } from './read-file';
export { replaceTool } from './replace';
export { saveMemoryTool } from './save-memory';
export { MAX_SHELL_OUTPUT_CHARS, rootCommands, shellTool } from './shell';
export { specOf } from './spec';
export { createWebFetchTool, WEB_FETCH_LIMITS, type WebFetchToolOptions } from './web-fetch';
export { webSearchTool } from './web-search';
export { writeFileTool } from './write-file';
export { writeTodosTool } from './write-todos';

/** The built-in tools every session starts with (a fresh grep backend and web_fetch rate limit per call). */
export function builtinTools(): Tool[] {
  return [
    readFileTool,
    writeFileTool,
    replaceTool,
    // Declared only to models whose wire API takes freeform tools (see its declaration).
    applyPatchTool,
    listDirectoryTool,
    globTool,
    createGrepTool(),
    shellTool,
    listBackgroundProcessesTool,
    readBackgroundOutputTool,
    createWebFetchTool(),
    googleWebSearchTool,
    webSearchTool,
    saveMemoryTool,
    writeTodosTool,
    invokeAgentTool,
    enterPlanModeTool,
    exitPlanModeTool,
    askUserTool,
  ];
}
