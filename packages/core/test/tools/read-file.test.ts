import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../src/tools/builtin/read-file';
import { Workspace } from '../../src/tools/workspace';
import { buildError, outsideWithLinks, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const read = (args: Record<string, unknown>) => runTool(readFileTool, args, ws.ctx);
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

function header(start: number, end: number, total: number): string {
  return (
    '\nIMPORTANT: The file content has been truncated.\n' +
    `Status: Showing lines ${start}-${end} of ${total} total lines.\n` +
    "Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. " +
    `For example, to read the next section of the file, use start_line: ${end + 1}.\n\n` +
    '--- FILE CONTENT (truncated) ---\n'
  );
}

describe('read_file', () => {
  it('returns a small file unchanged, without a header', async () => {
    ws.write('src/a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await read({ file_path: 'src/a.ts' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe('const a = 1;\nconst b = 2;');
  });

  it('splits CRLF lines and strips a UTF-8 BOM', async () => {
    ws.write('win.txt', '\ufeffone\r\ntwo\r\nthree');
    expect(text(await read({ file_path: 'win.txt' }))).toBe('one\ntwo\nthree');
  });

  it('decodes UTF-16LE and UTF-16BE files with a BOM', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld', 'utf16le')]);
    ws.write('le.txt', le);
    expect(text(await read({ file_path: 'le.txt' }))).toBe('héllo\nwörld');
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('ok €', 'utf16le').swap16()]);
    ws.write('be.txt', be);
    expect(text(await read({ file_path: 'be.txt' }))).toBe('ok €');
  });

  it('returns an empty file as empty text', async () => {
    ws.write('empty.txt', '');
    expect(text(await read({ file_path: 'empty.txt' }))).toBe('');
  });

  it('reads a line range with the byte-exact truncation header', async () => {
    ws.write('ten.txt', numbered(10));
    const result = await read({ file_path: 'ten.txt', start_line: 3, end_line: 5 });
    expect(text(result)).toBe(`${header(3, 5, 10)}line 3\nline 4\nline 5`);
    expect(result.returnDisplay).toBe('Read lines 3-5 of 10 from ten.txt');
  });

  it('caps a read at 2000 lines and says where to continue', async () => {
    ws.write('big.txt', `${numbered(2500)}\n`);
    const first = text(await read({ file_path: 'big.txt' }));
    expect(first.startsWith(header(1, 2000, 2500))).toBe(true);
    expect(first.endsWith('\nline 2000')).toBe(true);
    const next = text(await read({ file_path: 'big.txt', start_line: 2001 }));
    expect(next).toBe(header(2001, 2500, 2500) + numbered(2500).split('\n').slice(2000).join('\n'));
  });

  it('clamps end_line to the end of the file', async () => {
    ws.write('three.txt', numbered(3));
    expect(text(await read({ file_path: 'three.txt', start_line: 1, end_line: 99 }))).toBe(numbered(3));
  });

  it('cuts lines longer than 2000 characters and marks the output truncated', async () => {
    ws.write('long.txt', `short\n${'x'.repeat(2500)}\n`);
    const result = text(await read({ file_path: 'long.txt' }));
    expect(result).toBe(`${header(1, 2, 2)}short\n${'x'.repeat(2000)}... [truncated]`);
  });

  it('reports start_line beyond the end of the file', async () => {
    ws.write('two.txt', 'a\nb\n');
    const result = await read({ file_path: 'two.txt', start_line: 5 });
    expect(result.error?.type).toBe('invalid_tool_params');
    expect(result.error?.message).toContain('start_line 5 is beyond the end of the file');
  });

  it('rejects start_line greater than end_line', () => {
    ws.write('a.txt', 'a');
    const error = buildError(readFileTool, { file_path: 'a.txt', start_line: 5, end_line: 2 }, ws.ctx);
    expect(error).toEqual({
      type: 'invalid_tool_params',
      message: 'start_line cannot be greater than end_line',
    });
  });

  it('validates parameters', () => {
    expect(buildError(readFileTool, {}, ws.ctx)?.message).toBe(
      "params must have required property 'file_path'",
    );
    expect(buildError(readFileTool, { file_path: 'a', start_line: 0 }, ws.ctx)?.type).toBe(
      'invalid_tool_params',
    );
    expect(buildError(readFileTool, { file_path: 'a', end_line: 1.5 }, ws.ctx)?.type).toBe(
      'invalid_tool_params',
    );
    expect(buildError(readFileTool, { file_path: '  ' }, ws.ctx)?.message).toBe(
      "The 'file_path' parameter must be non-empty.",
    );
    expect(buildError(readFileTool, { file_path: 42 }, ws.ctx)?.type).toBe('invalid_tool_params');
  });

  it('reports a missing file', async () => {
    const result = await read({ file_path: 'nope.txt' });
    expect(result.error).toEqual({
      type: 'file_not_found',
      message: `File not found: ${join(ws.root, 'nope.txt')}`,
    });
  });

  it('reports a directory', async () => {
    mkdirSync(join(ws.root, 'dir'));
    const result = await read({ file_path: 'dir' });
    expect(result.error).toEqual({
      type: 'target_is_directory',
      message: `Path is a directory, not a file: ${join(ws.root, 'dir')}`,
    });
  });

  it('refuses files over 20 MB', async () => {
    const path = ws.write('huge.log', '');
    truncateSync(path, 21 * 1024 * 1024); // sparse: no real disk use
    const result = await read({ file_path: 'huge.log' });
    expect(result.error).toEqual({
      type: 'file_too_large',
      message: `File size exceeds the 20MB limit: ${path} (21.00MB)`,
    });
  });

  it('does not show binary files (NUL bytes or binary extensions)', async () => {
    ws.write('bin/data', Buffer.from([0x41, 0x00, 0x42]));
    ws.write('img/logo.png', Buffer.from([0x00, 0x01, 0x02, 0x03])); // not PNG bytes
    ws.write('lib.zip', 'PK');
    ws.write('font.woff2', 'wOF2');
    for (const rel of ['bin/data', 'img/logo.png', 'lib.zip', 'font.woff2']) {
      const result = await read({ file_path: rel });
      expect(result.error).toBeUndefined();
      expect(text(result)).toBe(`Cannot display content of binary file: ${rel}`);
    }
  });

  describe('media files', () => {
    const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(16, 7)]);
    const media: [string, Buffer, string, string][] = [
      ['img/logo.png', PNG, 'image/png', 'image'],
      ['photo.JPG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'image/jpeg', 'image'],
      ['anim.gif', Buffer.from('GIF89a\x01\x00'), 'image/gif', 'image'],
      ['pic.webp', Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 '), 'image/webp', 'image'],
      ['old.bmp', Buffer.from('BM\x00\x00\x00'), 'image/bmp', 'image'],
      ['doc.pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\n'), 'application/pdf', 'PDF'],
      ['voice.mp3', Buffer.from('ID3\x04\x00'), 'audio/mpeg', 'audio'],
      ['beep.wav', Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt '), 'audio/wav', 'audio'],
      ['clip.mp4', Buffer.from('\x00\x00\x00\x18ftypmp42'), 'video/mp4', 'video'],
    ];

    it.each(media)(
      'returns %s as inline data after a short text part',
      async (rel, bytes, mimeType, noun) => {
        ws.write(rel, bytes);
        const result = await read({ file_path: rel });
        expect(result.error).toBeUndefined();
        expect(result.llmContent).toEqual([
          { text: `Content of ${noun} file ${rel} (${mimeType}, ${bytes.length} bytes) is attached.` },
          { inlineData: { mimeType, data: bytes.toString('base64') } },
        ]);
        expect(result.returnDisplay).toBe(`Read ${noun} file: ${rel}`);
      },
    );

    it('reads a text file with a media extension (e.g. a Git LFS pointer) as text', async () => {
      const pointer = 'version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12345\n';
      ws.write('assets/hero.png', pointer);
      expect(text(await read({ file_path: 'assets/hero.png' }))).toBe(pointer.trimEnd());
    });

    it('refuses media over the inline limit', async () => {
      const path = ws.write('big.png', PNG);
      truncateSync(path, 11 * 1024 * 1024); // sparse
      const result = await read({ file_path: 'big.png' });
      expect(result.error).toEqual({
        type: 'file_too_large',
        message: `File size exceeds the 10MB limit for image files: ${path} (11.00MB)`,
      });
    });
  });

  describe('ignore files', () => {
    it('refuses paths .gitignore, .geminiignore or .kodoignore exclude, at validation', () => {
      ws.write('.gitignore', 'dist/\n.env\n');
      ws.write('.geminiignore', 'private.md\n');
      ws.write('.kodoignore', 'notes/\n');
      for (const rel of ['dist/bundle.js', '.env', 'private.md', 'notes/todo.txt', 'sub/.env']) {
        ws.write(rel, 'x');
        expect(buildError(readFileTool, { file_path: rel }, ws.ctx)).toEqual({
          type: 'invalid_tool_params',
          message: `File path '${join(ws.root, rel)}' is ignored by configured ignore patterns.`,
        });
      }
      ws.write('ok.md', 'fine');
      expect(buildError(readFileTool, { file_path: 'ok.md' }, ws.ctx)).toBeUndefined();
    });

    it("obeys the repository's rules when the workspace is inside one", async () => {
      ws.write('.gitignore', 'secret/\n');
      ws.write('.git/HEAD', 'ref: refs/heads/main\n');
      ws.write('app/secret/key.txt', 'k');
      ws.write('app/readme.txt', 'hello');
      const ctx = { ...ws.ctx, workspace: new Workspace({ roots: [join(ws.root, 'app')] }) };
      expect(buildError(readFileTool, { file_path: 'secret/key.txt' }, ctx)?.message).toContain(
        'is ignored by configured ignore patterns.',
      );
      expect(text(await runTool(readFileTool, { file_path: 'readme.txt' }, ctx))).toBe('hello');
    });
  });

  it('treats .ts as text and small SVG as text, large SVG not', async () => {
    ws.write('mod.ts', 'export {};\n');
    expect(text(await read({ file_path: 'mod.ts' }))).toBe('export {};');
    ws.write('icon.svg', '<svg/>\n');
    expect(text(await read({ file_path: 'icon.svg' }))).toBe('<svg/>');
    ws.write('big.svg', `<svg>${' '.repeat(1024 * 1024)}</svg>`);
    expect(text(await read({ file_path: 'big.svg' }))).toBe(
      'Cannot display content of SVG file larger than 1MB: big.svg',
    );
  });

  it('accepts absolute paths inside the workspace', async () => {
    const path = ws.write('abs.txt', 'hi');
    expect(text(await read({ file_path: path }))).toBe('hi');
  });

  describe('hostile paths', () => {
    it('refuses traversal and absolute paths outside the workspace', () => {
      for (const file_path of ['../x', '../../etc/passwd', '/etc/passwd', 'a/../../x']) {
        const error = buildError(readFileTool, { file_path }, ws.ctx);
        expect(error?.type).toBe('path_not_in_workspace');
        expect(error?.message).toContain(
          `Path not in workspace: Attempted path "${file_path}" resolves outside`,
        );
      }
    });

    it('refuses symlinks that lead outside, and follows ones that stay inside', async () => {
      const outside = outsideWithLinks(ws.root);
      try {
        expect(buildError(readFileTool, { file_path: 'link-file' }, ws.ctx)?.type).toBe(
          'path_not_in_workspace',
        );
        expect(buildError(readFileTool, { file_path: 'link-dir/secret.txt' }, ws.ctx)?.type).toBe(
          'path_not_in_workspace',
        );
        ws.write('real.txt', 'inside');
        symlinkSync(join(ws.root, 'real.txt'), join(ws.root, 'inner-link'));
        expect(text(await read({ file_path: 'inner-link' }))).toBe('inside');
      } finally {
        outside.cleanup();
      }
    });

    it('re-checks containment at execution time', async () => {
      ws.write('swap.txt', 'fine');
      const built = readFileTool.build({ file_path: 'swap.txt' }, ws.ctx);
      if (!built.ok) throw new Error('build failed');
      const outside = outsideWithLinks(ws.root);
      try {
        rmSync(join(ws.root, 'swap.txt'));
        symlinkSync(join(outside.outside, 'secret.txt'), join(ws.root, 'swap.txt'));
        const result = await built.invocation.execute({ signal: new AbortController().signal });
        expect(result.error?.type).toBe('path_not_in_workspace');
        expect(JSON.stringify(result)).not.toContain('top secret');
      } finally {
        outside.cleanup();
      }
    });
  });

  it('describes itself and its location', () => {
    writeFileSync(join(ws.root, 'd.txt'), 'x');
    const built = readFileTool.build({ file_path: 'd.txt', start_line: 2 }, ws.ctx);
    if (!built.ok) throw new Error('build failed');
    expect(built.invocation.describe()).toBe('d.txt (lines 2-end)');
    expect(built.invocation.locations()).toEqual([join(ws.root, 'd.txt')]);
  });
});
