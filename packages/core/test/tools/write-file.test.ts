import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileTool } from '../../src/tools/builtin/write-file';
import { buildError, outsideWithLinks, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const write = (args: Record<string, unknown>) => runTool(writeFileTool, args, ws.ctx);
const isRoot = process.getuid?.() === 0;

describe('write_file', () => {
  it('creates a new file and its parent directories', async () => {
    const result = await write({ file_path: 'src/deep/new.ts', content: 'export const x = 1;\n' });
    const abs = join(ws.root, 'src/deep/new.ts');
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe(
      `Successfully created and wrote to new file: ${abs}. Here is the updated code:\nexport const x = 1;\n`,
    );
    expect(ws.read('src/deep/new.ts')).toBe('export const x = 1;\n');
    expect(result.diffStat).toEqual({ linesAdded: 1, linesRemoved: 0 });
    expect(result.returnDisplay).toContain('+export const x = 1;');
  });

  it('overwrites a file and shows the changed lines with 5 lines of context', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    ws.write('f.txt', `${lines.join('\n')}\n`);
    const changed = [...lines];
    changed[14] = 'CHANGED 15';
    const result = await write({ file_path: 'f.txt', content: `${changed.join('\n')}\n` });
    const abs = join(ws.root, 'f.txt');
    const snippet = ['...', ...changed.slice(9, 20), '...'].join('\n');
    expect(text(result)).toBe(`Successfully overwrote file: ${abs}. Here is the updated code:\n${snippet}`);
    expect(result.diffStat).toEqual({ linesAdded: 1, linesRemoved: 1 });
    expect(ws.read('f.txt')).toBe(`${changed.join('\n')}\n`);
  });

  it('keeps CRLF line endings of an existing CRLF file', async () => {
    ws.write('win.txt', 'a\r\nb\r\n');
    await write({ file_path: 'win.txt', content: 'a\nb\nc\n' });
    expect(ws.read('win.txt')).toBe('a\r\nb\r\nc\r\n');
  });

  it('writes LF files as LF', async () => {
    ws.write('unix.txt', 'a\nb\n');
    await write({ file_path: 'unix.txt', content: 'x\r\ny\n' });
    expect(ws.read('unix.txt')).toBe('x\ny\n');
  });

  it('keeps a UTF-8 BOM and a UTF-16LE encoding', async () => {
    ws.write('bom.txt', '\ufeffold');
    await write({ file_path: 'bom.txt', content: 'new' });
    expect([...readFileSync(join(ws.root, 'bom.txt'))]).toEqual([0xef, 0xbb, 0xbf, 0x6e, 0x65, 0x77]);
    ws.write('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('old', 'utf16le')]));
    await write({ file_path: 'u16.txt', content: 'né' });
    expect(readFileSync(join(ws.root, 'u16.txt'))).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('né', 'utf16le')]),
    );
  });

  it('offers a unified diff for confirmation', async () => {
    ws.write('c.txt', 'old line\n');
    const built = writeFileTool.build({ file_path: 'c.txt', content: 'new line\n' }, ws.ctx);
    if (!built.ok) throw new Error('build failed');
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    expect(details).toMatchObject({
      kind: 'edit',
      filePath: join(ws.root, 'c.txt'),
      newContent: 'new line\n',
    });
    if (details.kind !== 'edit') throw new Error('expected edit details');
    expect(details.diff).toContain('--- c.txt\tCurrent');
    expect(details.diff).toContain('-old line\n+new line');
    expect(ws.read('c.txt')).toBe('old line\n'); // confirming never writes
  });

  it('rejects a directory path', () => {
    mkdirSync(join(ws.root, 'dir'));
    expect(buildError(writeFileTool, { file_path: 'dir', content: 'x' }, ws.ctx)).toEqual({
      type: 'invalid_tool_params',
      message: `Path is a directory, not a file: ${join(ws.root, 'dir')}`,
    });
  });

  it('rejects content with an omission placeholder', () => {
    const content = 'class A {\n  // rest of methods ...\n}\n';
    expect(buildError(writeFileTool, { file_path: 'a.ts', content }, ws.ctx)?.message).toBe(
      "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.",
    );
    expect(
      buildError(writeFileTool, { file_path: 'a.ts', content: 'const x = [...a];\n...\n' }, ws.ctx),
    ).toBe(undefined);
  });

  it('validates parameters', () => {
    expect(buildError(writeFileTool, { file_path: 'a' }, ws.ctx)?.message).toBe(
      "params must have required property 'content'",
    );
    expect(buildError(writeFileTool, { content: 'a' }, ws.ctx)?.message).toBe(
      "params must have required property 'file_path'",
    );
    expect(buildError(writeFileTool, { file_path: 'a', content: 1 }, ws.ctx)?.type).toBe(
      'invalid_tool_params',
    );
  });

  it('maps a write failure under a regular file to file_write_failure', async () => {
    ws.write('plain.txt', 'x');
    const result = await write({ file_path: 'plain.txt/child.txt', content: 'y' });
    expect(result.error?.type).toBe('file_write_failure');
    expect(result.error?.message).toContain(join(ws.root, 'plain.txt/child.txt'));
  });

  it.skipIf(isRoot)('maps EACCES to permission_denied', async () => {
    mkdirSync(join(ws.root, 'locked'));
    chmodSync(join(ws.root, 'locked'), 0o500);
    try {
      const result = await write({ file_path: 'locked/x.txt', content: 'y' });
      expect(result.error?.type).toBe('permission_denied');
    } finally {
      chmodSync(join(ws.root, 'locked'), 0o700);
    }
  });

  describe('hostile paths', () => {
    it('refuses traversal and absolute paths outside the workspace', () => {
      for (const file_path of ['../x.txt', '/tmp/kodo-evil.txt', 'sub/../../x.txt']) {
        expect(buildError(writeFileTool, { file_path, content: 'x' }, ws.ctx)?.type).toBe(
          'path_not_in_workspace',
        );
      }
    });

    it('refuses writing through symlinks that lead outside, including dangling ones', async () => {
      const outside = outsideWithLinks(ws.root);
      try {
        for (const file_path of ['link-file', 'link-dir/new.txt', 'link-dangling']) {
          expect(buildError(writeFileTool, { file_path, content: 'pwned' }, ws.ctx)?.type).toBe(
            'path_not_in_workspace',
          );
        }
        expect(readFileSync(join(outside.outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
        expect(existsSync(join(outside.outside, 'created-through-link.txt'))).toBe(false);
        expect(existsSync(join(outside.outside, 'new.txt'))).toBe(false);
      } finally {
        outside.cleanup();
      }
    });

    it('refuses a dangling link reached through a symlinked directory', () => {
      // link-dir -> <outside>, and <outside>/back -> ../<name>. Resolved from the path as written
      // (<root>/link-dir/..) the target is inside the workspace; from the link's real directory
      // it is <tmp>/<name>, outside.
      const outside = outsideWithLinks(ws.root);
      const name = `kodo-escape-${basename(ws.root)}`;
      try {
        symlinkSync(join('..', name), join(outside.outside, 'back'));
        expect(
          buildError(writeFileTool, { file_path: 'link-dir/back', content: 'pwned' }, ws.ctx)?.type,
        ).toBe('path_not_in_workspace');
        expect(existsSync(join(dirname(outside.outside), name))).toBe(false);
      } finally {
        outside.cleanup();
      }
    });
  });
});
