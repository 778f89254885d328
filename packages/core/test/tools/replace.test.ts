import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceTool } from '../../src/tools/builtin/replace';
import { buildError, outsideWithLinks, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const edit = (args: Record<string, unknown>) =>
  runTool(replaceTool, { instruction: 'test edit', ...args }, ws.ctx);
const isRoot = process.getuid?.() === 0;

describe('replace', () => {
  it('replaces a unique occurrence', async () => {
    ws.write('a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await edit({ file_path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe(
      `Successfully modified file: ${join(ws.root, 'a.ts')} (1 replacements). Here is the updated code:\nconst a = 1;\nconst b = 3;`,
    );
    expect(ws.read('a.ts')).toBe('const a = 1;\nconst b = 3;\n');
    expect(result.diffStat).toEqual({ linesAdded: 1, linesRemoved: 1 });
    expect(result.returnDisplay).toContain('-const b = 2;\n+const b = 3;');
  });

  it('treats $ patterns in new_string literally', async () => {
    ws.write('p.txt', 'price: X\n');
    await edit({ file_path: 'p.txt', old_string: 'X', new_string: "$& $1 $$ $' $`" });
    expect(ws.read('p.txt')).toBe("price: $& $1 $$ $' $`\n");
  });

  it('reports zero occurrences with the path as given', async () => {
    ws.write('a.txt', 'hello\n');
    const result = await edit({ file_path: 'a.txt', old_string: 'bye', new_string: 'x' });
    expect(result.error).toEqual({
      type: 'edit_no_occurrence_found',
      message:
        "Failed to edit, 0 occurrences found for old_string in a.txt. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.",
    });
  });

  it('refuses several occurrences unless allow_multiple', async () => {
    ws.write('m.txt', 'x = 1\nx = 1\n');
    const result = await edit({ file_path: 'm.txt', old_string: 'x = 1', new_string: 'x = 2' });
    expect(result.error).toEqual({
      type: 'edit_expected_occurrence_mismatch',
      message:
        "Failed to edit, Expected 1 occurrence but found 2 for old_string in file: m.txt. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
    });
    expect(ws.read('m.txt')).toBe('x = 1\nx = 1\n');
    const all = await edit({
      file_path: 'm.txt',
      old_string: 'x = 1',
      new_string: 'x = 2',
      allow_multiple: true,
    });
    expect(text(all)).toContain('(2 replacements)');
    expect(ws.read('m.txt')).toBe('x = 2\nx = 2\n');
  });

  it('reports identical old and new strings', async () => {
    ws.write('s.txt', 'same\n');
    const result = await edit({ file_path: 's.txt', old_string: 'same', new_string: 'same' });
    expect(result.error).toEqual({
      type: 'edit_no_change',
      message: 'No changes to apply. The old_string and new_string are identical in file: s.txt',
    });
  });

  it('reports a missing file when old_string is not empty', async () => {
    const result = await edit({ file_path: 'missing.txt', old_string: 'a', new_string: 'b' });
    expect(result.error).toEqual({
      type: 'file_not_found',
      message: `File not found: ${join(ws.root, 'missing.txt')}`,
    });
  });

  it('creates a file from an empty old_string', async () => {
    const result = await edit({ file_path: 'new/dir/f.txt', old_string: '', new_string: 'fresh\n' });
    expect(text(result)).toBe(`Created new file: ${join(ws.root, 'new/dir/f.txt')} with provided content.`);
    expect(ws.read('new/dir/f.txt')).toBe('fresh\n');
    expect(result.diffStat).toEqual({ linesAdded: 1, linesRemoved: 0 });
  });

  it('refuses to create a file that exists', async () => {
    ws.write('here.txt', '');
    const result = await edit({ file_path: 'here.txt', old_string: '', new_string: 'x' });
    expect(result.error).toEqual({
      type: 'attempt_to_create_existing_file',
      message: `File already exists, cannot create: ${join(ws.root, 'here.txt')}`,
    });
  });

  it('matches across CRLF lines and writes CRLF back', async () => {
    ws.write('win.txt', 'one\r\ntwo\r\nthree\r\n');
    await edit({ file_path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
    expect(ws.read('win.txt')).toBe('uno\r\ndos\r\nthree\r\n');
    ws.write('unix.txt', 'a\nb\n');
    await edit({ file_path: 'unix.txt', old_string: 'a\r\nb', new_string: 'c\r\nd' });
    expect(ws.read('unix.txt')).toBe('c\nd\n');
  });

  it('keeps the final-newline state of the file', async () => {
    ws.write('end.txt', 'a\nb\n');
    await edit({ file_path: 'end.txt', old_string: 'b\n', new_string: 'c' });
    expect(ws.read('end.txt')).toBe('a\nc\n');
    ws.write('noend.txt', 'a\nb');
    await edit({ file_path: 'noend.txt', old_string: 'b', new_string: 'c\n' });
    expect(ws.read('noend.txt')).toBe('a\nc');
  });

  it('rejects a new omission placeholder, allows one copied from old_string', () => {
    const args = { file_path: 'x.ts', instruction: 'i', old_string: 'a' };
    expect(buildError(replaceTool, { ...args, new_string: '// rest of code ...' }, ws.ctx)?.message).toBe(
      "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.",
    );
    const kept = { ...args, old_string: 'x\n// rest of code ...', new_string: 'y\n// rest of code ...' };
    expect(buildError(replaceTool, kept, ws.ctx)).toBeUndefined();
  });

  it('validates parameters', () => {
    const full = { file_path: 'a', instruction: 'i', old_string: 'o', new_string: 'n' };
    for (const field of ['file_path', 'instruction', 'old_string', 'new_string'] as const) {
      const { [field]: _removed, ...rest } = full;
      expect(buildError(replaceTool, rest, ws.ctx)?.message).toBe(
        `params must have required property '${field}'`,
      );
    }
    expect(buildError(replaceTool, { ...full, allow_multiple: 'yes' }, ws.ctx)?.type).toBe(
      'invalid_tool_params',
    );
  });

  it('shows the edit as a diff for confirmation without writing', async () => {
    ws.write('c.txt', 'keep\nold\n');
    const built = replaceTool.build(
      { file_path: 'c.txt', instruction: 'i', old_string: 'old', new_string: 'new' },
      ws.ctx,
    );
    if (!built.ok) throw new Error('build failed');
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    if (details.kind !== 'edit') throw new Error('expected edit details');
    expect(details.diff).toContain('-old\n+new');
    expect(details.newContent).toBe('keep\nnew\n');
    expect(ws.read('c.txt')).toBe('keep\nold\n');
  });

  it('reports a directory', async () => {
    mkdirSync(join(ws.root, 'dir'));
    const result = await edit({ file_path: 'dir', old_string: 'a', new_string: 'b' });
    expect(result.error?.type).toBe('target_is_directory');
  });

  it.skipIf(isRoot)('reports an unreadable file', async () => {
    const path = ws.write('secret.txt', 'a');
    chmodSync(path, 0o000);
    const result = await edit({ file_path: 'secret.txt', old_string: 'a', new_string: 'b' });
    expect(result.error).toEqual({
      type: 'read_content_failure',
      message: `Failed to read content of existing file: ${path}`,
    });
  });

  describe('hostile paths', () => {
    it('refuses paths outside the workspace', () => {
      for (const file_path of ['../x', '/etc/hosts', './a/../../b']) {
        const args = { file_path, instruction: 'i', old_string: '', new_string: 'x' };
        expect(buildError(replaceTool, args, ws.ctx)?.type).toBe('path_not_in_workspace');
      }
    });

    it('refuses symlinks that lead outside', () => {
      const outside = outsideWithLinks(ws.root);
      try {
        for (const file_path of ['link-file', 'link-dir/secret.txt', 'link-dangling']) {
          const args = { file_path, instruction: 'i', old_string: '', new_string: 'pwned' };
          expect(buildError(replaceTool, args, ws.ctx)?.type).toBe('path_not_in_workspace');
        }
        expect(readFileSync(join(outside.outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
        expect(existsSync(join(outside.outside, 'created-through-link.txt'))).toBe(false);
      } finally {
        outside.cleanup();
      }
    });
  });
});
