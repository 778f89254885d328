/**
 * File tools through the editor (`fs/read_text_file`, `fs/write_text_file`) when the client
 * offers them: reads see unsaved buffers, writes join the editor's undo. Only paths inside the
 * session's folder go there (the workspace checks have already run); anything else, such as the
 * project temp dir, stays on the local disk. The editor speaks text: its answers are UTF-8, and
 * the file's line endings are kept.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isInside, kindOf, loadFileText, type TextFileAccess } from '@kodo/core/engine';

const NOT_FOUND = /resource not found|enoent|does not exist|no such file|not found/i;

export function editorTextFiles(options: {
  client: acp.AgentContext;
  sessionId: string;
  cwd: string;
  capabilities: acp.FileSystemCapabilities | undefined;
}): TextFileAccess | undefined {
  const { client, sessionId, cwd, capabilities } = options;
  // Both or neither: a file read from the disk and written through the editor (or the other way
  // round) could lose the buffer's unsaved changes.
  if (!capabilities?.readTextFile || !capabilities.writeTextFile) return undefined;
  return {
    handles: (abs) => isInside(cwd, abs),
    async read(abs) {
      let answer: unknown;
      try {
        answer = await client.request('fs/read_text_file', { sessionId, path: abs });
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
      // The editor's answer is checked, not trusted: a wrong shape is named for the model.
      const content = (answer as { content?: unknown } | null)?.content;
      if (typeof content !== 'string') {
        throw new Error(
          `the editor's answer to fs/read_text_file has no text (content must be a string, got ${kindOf(content)})`,
        );
      }
      return {
        text: content.replace(/\r\n/g, '\n'),
        raw: content,
        encoding: 'utf8',
        lineEnding: (await loadFileText()).detectLineEnding(content),
        binary: false,
      };
    },
    async write(abs, text, format) {
      const content = (await loadFileText()).textWithLineEndings(text, format);
      await client.request('fs/write_text_file', { sessionId, path: abs, content });
    },
  };
}

function isNotFound(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === -32002 || (typeof message === 'string' && NOT_FOUND.test(message));
}
