import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { diffStat, unifiedDiff } from '../diff';
import { detectLineEnding, textWithLineEndings, toLf } from '../file-text';
import { errnoCode } from '../results';
import type { ConfirmationDetails, ToolContext, ToolError, ToolResult } from '../tool';

/** The section of the global context file that holds saved facts. */
export const MEMORY_SECTION_HEADER = '## kodo Added Memories';

const parameters = z.object({
  fact: z
    .string()
    .describe(
      'The fact or piece of information to remember, as a short self-contained statement ' +
        '(e.g. "The user prefers tabs over spaces.").',
    ),
});

type Params = z.infer<typeof parameters>;

export const saveMemoryTool = defineTool({
  name: 'save_memory',
  displayName: 'SaveMemory',
  kind: 'edit',
  description:
    'Saves a specific fact about the user or their preferences to long-term memory, so it is ' +
    'remembered in future sessions. Use it when the user asks you to remember something, or ' +
    'states a lasting preference that will matter later. Do not use it for conversation-specific ' +
    'details, for large amounts of text, or for facts about the current project that belong in ' +
    'its own files.',
  parameters,
  validate: validateFact,
  describe: (params, ctx) => `${displayPath(ctx.memoryFilePath)}: "${cleanFact(params.fact)}"`,
  locations: (_params, ctx) => (ctx.memoryFilePath ? [ctx.memoryFilePath] : []),
  confirmationDetails: memoryConfirmation,
  execute: (params, ctx) => saveMemory(params, ctx),
});

function validateFact(params: Params): ToolError | undefined {
  if (cleanFact(params.fact) === '') {
    return { type: 'invalid_tool_params', message: 'Parameter "fact" must be a non-empty string.' };
  }
  return undefined;
}

/**
 * One Markdown list line per fact: line breaks would start new lines (or headings) in the
 * context file, a leading `-` would double the bullet, and angle brackets could open tags that
 * confuse the prompt the file is loaded into.
 */
export function cleanFact(fact: string): string {
  return fact
    .replace(/\r\n|[\r\n]/g, ' ')
    .replace(/[<>]/g, ' ')
    .trim()
    .replace(/^(-+\s*)+/, '')
    .trim();
}

/**
 * The context file with `- <fact>` appended to its memories section: at the end of the section,
 * before the next `## ` heading. A missing section is added at the end, after a blank line.
 */
export function addMemoryEntry(content: string, fact: string): string {
  const entry = `- ${fact}\n`;
  const header = /^## kodo Added Memories[ \t]*\r?$/m.exec(content);
  if (!header) {
    const separator =
      content === '' ? '' : content.endsWith('\n\n') ? '' : content.endsWith('\n') ? '\n' : '\n\n';
    return `${content}${separator}${MEMORY_SECTION_HEADER}\n${entry}`;
  }
  const headerEnd = header.index + header[0].length;
  // The header line with its line break (added when the header ends the file).
  const before = `${content.slice(0, headerEnd)}\n`;
  const bodyStart = content[headerEnd] === '\n' ? headerEnd + 1 : headerEnd;
  const nextHeading = /^## /m.exec(content.slice(bodyStart));
  const sectionEnd = nextHeading ? bodyStart + nextHeading.index : content.length;
  const body = content.slice(bodyStart, sectionEnd).replace(/\s+$/, '');
  const after = content.slice(sectionEnd);
  return `${before}${body ? `${body}\n` : ''}${entry}${after ? `\n${after}` : ''}`;
}

interface PreparedSave {
  path: string;
  fact: string;
  oldText: string;
  newText: string;
}

async function prepare(params: Params, ctx: ToolContext): Promise<PreparedSave | ToolError> {
  const path = ctx.memoryFilePath;
  if (!path) {
    return { type: 'memory_tool_execution_error', message: 'No memory file is configured for this session.' };
  }
  let oldText = '';
  try {
    oldText = await readFile(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') {
      return { type: 'memory_tool_execution_error', message: errorMessage(error) };
    }
  }
  const fact = cleanFact(params.fact);
  // Worked out on LF text and written in the file's own endings: the lines around the new entry
  // keep theirs, whatever the file mixes.
  const newLf = addMemoryEntry(toLf(oldText), fact);
  const newText = textWithLineEndings(newLf, { lineEnding: detectLineEnding(oldText), originalRaw: oldText });
  return { path, fact, oldText, newText };
}

async function memoryConfirmation(
  params: Params,
  ctx: ToolContext,
): Promise<ConfirmationDetails | undefined> {
  const prepared = await prepare(params, ctx);
  if ('type' in prepared) return undefined;
  const shown = displayPath(prepared.path);
  return {
    kind: 'edit',
    title: `Confirm Memory Save: ${shown}`,
    filePath: prepared.path,
    diff: unifiedDiff(shown, prepared.oldText, prepared.newText),
    newContent: prepared.newText,
  };
}

async function saveMemory(params: Params, ctx: ToolContext): Promise<ToolResult> {
  const prepared = await prepare(params, ctx);
  if ('type' in prepared) return memoryFailure(prepared.message);
  try {
    await mkdir(dirname(prepared.path), { recursive: true });
    await writeFile(prepared.path, prepared.newText, 'utf8');
  } catch (error) {
    return memoryFailure(errorMessage(error));
  }
  const message = `Okay, I've remembered that: "${prepared.fact}"`;
  return {
    llmContent: JSON.stringify({ success: true, message }),
    returnDisplay: message,
    diffStat: diffStat(prepared.oldText, prepared.newText),
  };
}

function memoryFailure(detail: string): ToolResult {
  const message = `Failed to save memory. Detail: ${detail}`;
  return {
    llmContent: JSON.stringify({ success: false, error: message }),
    returnDisplay: message,
    error: { type: 'memory_tool_execution_error', message },
  };
}

/** `~/.kodo/KODO.md` rather than the absolute path, for the person. */
function displayPath(path: string | undefined): string {
  if (!path) return 'memory';
  const home = homedir();
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
