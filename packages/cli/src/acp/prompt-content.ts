/**
 * An ACP prompt (content blocks) as a line for core's input pipeline: the text blocks are the
 * line, as a person typed it (so `/command` and `@agent` mean what they mean in the terminal); a
 * `file://` link is an `@path` reference in it (attached as `@path` is everywhere); what the
 * editor embedded (a file's text, images, audio) follows the line as parts.
 */
import { fileURLToPath } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';
import type { LineInput, Part } from '@kodo/core/engine';

export function promptLine(blocks: readonly acp.ContentBlock[]): LineInput {
  let text = '';
  const parts: Part[] = [];
  const addText = (next: string) => {
    text = text === '' || text.endsWith('\n') || next.startsWith('\n') ? `${text}${next}` : `${text} ${next}`;
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        addText(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push({ inlineData: { mimeType: block.mimeType, data: block.data } });
        break;
      case 'resource_link':
        addText(`@${linkTarget(block.uri)}`);
        break;
      case 'resource': {
        const { resource } = block;
        parts.push(
          'text' in resource
            ? { text: `\n<file uri="${resource.uri}">\n${resource.text}\n</file>\n` }
            : {
                inlineData: {
                  mimeType: resource.mimeType ?? 'application/octet-stream',
                  data: resource.blob,
                },
              },
        );
        break;
      }
    }
  }
  return parts.length > 0 ? { text, parts } : { text };
}

/** A `file://` link as its path, spaces escaped as `@path` takes them; any other URI as it is. */
function linkTarget(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return fileURLToPath(uri).replace(/ /g, '\\ ');
  } catch {
    return uri;
  }
}
