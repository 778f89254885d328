import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { editorTextFiles } from '../src/acp/editor-files';

/**
 * Issue N, "An edit in a mixed-line-ending file changes a neighbouring line's ending", through
 * an editor (ACP): the write used to turn every line ending into the one the file had most of.
 */
describe('edits through the editor keep the bytes outside the edited span', () => {
  it('a one-line edit of a mixed-ending buffer changes that line only', async () => {
    const raw = 'one\r\ntwo\nthree\r\nfour\nfive\r\n';
    let written: string | undefined;
    const client = {
      request: async (method: string, params: { content?: string }) => {
        if (method === 'fs/read_text_file') return { content: raw };
        written = params.content;
        return {};
      },
    } as unknown as acp.AgentContext;
    const files = editorTextFiles({
      client,
      sessionId: 's',
      cwd: '/work',
      capabilities: { readTextFile: true, writeTextFile: true },
    })!;
    const existing = (await files.read('/work/a.txt'))!;
    await files.write('/work/a.txt', existing.text.replace('four', 'FOUR'), {
      encoding: existing.encoding,
      lineEnding: existing.lineEnding,
      originalRaw: existing.raw,
    });
    expect(written).toBe('one\r\ntwo\nthree\r\nFOUR\nfive\r\n');
  });
});
