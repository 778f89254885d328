import {
  chmodSync,
  existsSync,
  lstatSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool, createApplyPatchTool } from '../../src/tools/builtin/apply-patch';
import type { PatchFileSystem } from '../../src/tools/patch/commit';
import { APPLY_PATCH_GRAMMAR } from '../../src/tools/patch/grammar';
import type { Tool, ToolContext } from '../../src/tools/tool';
import { beforePatchWrites, buildError, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
const apply = (input: string, tool: Tool = applyPatchTool) => runTool(tool, { input }, ws.ctx);
const bytes = (rel: string) => readFileSync(join(ws.root, rel));
const exists = (rel: string) => existsSync(join(ws.root, rel));

describe('apply_patch: the declaration', () => {
  it('is a freeform edit tool carrying the Lark grammar, with only {input}', () => {
    expect(applyPatchTool.kind).toBe('edit');
    const declaration = applyPatchTool.declaration();
    expect(declaration.freeform).toEqual({ syntax: 'lark', definition: APPLY_PATCH_GRAMMAR });
    // No `wait_for_previous`: a freeform call carries only its text.
    expect(declaration.parametersJsonSchema).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: expect.any(String) } },
      required: ['input'],
      additionalProperties: false,
    });
  });
});

describe('apply_patch: operations', () => {
  it('adds a file, creating its directories', async () => {
    const result = await apply(
      patch('*** Add File: src/deep/new.ts', '+export const a = 1;', '+', '+// end'),
    );
    expect(result.error).toBeUndefined();
    expect(ws.read('src/deep/new.ts')).toBe('export const a = 1;\n\n// end\n');
    expect(text(result)).toBe('Success. Updated the following files:\nA src/deep/new.ts (+3 -0)');
    expect(result.diffStat).toEqual({ linesAdded: 3, linesRemoved: 0 });
    expect(result.fileDiff).toEqual({
      path: join(ws.root, 'src/deep/new.ts'),
      oldText: null,
      newText: 'export const a = 1;\n\n// end\n',
    });
  });

  it('adds an empty file', async () => {
    const result = await apply(patch('*** Add File: pkg/__init__.py'));
    expect(result.error).toBeUndefined();
    expect(ws.read('pkg/__init__.py')).toBe('');
    expect(text(result)).toBe('Success. Updated the following files:\nA pkg/__init__.py');
  });

  it('deletes a file', async () => {
    ws.write('old.txt', 'one\ntwo\n');
    const result = await apply(patch('*** Delete File: old.txt'));
    expect(result.error).toBeUndefined();
    expect(exists('old.txt')).toBe(false);
    expect(text(result)).toBe('Success. Updated the following files:\nD old.txt (+0 -2)');
    expect(result.returnDisplay).toContain('-one\n-two');
  });

  it('deletes a binary file, without a diff', async () => {
    ws.write('blob.bin', Buffer.from([0, 1, 2, 0, 255]));
    const result = await apply(patch('*** Delete File: blob.bin'));
    expect(result.error).toBeUndefined();
    expect(exists('blob.bin')).toBe(false);
    expect(text(result)).toBe('Success. Updated the following files:\nD blob.bin (binary)');
    expect(result.returnDisplay).toBe('Binary file blob.bin deleted\n');
  });

  it('updates a file with several hunks and reports forgiving matches', async () => {
    ws.write('app.py', 'import os\n\ndef a():\n    return 1   \n\ndef b():\n    return 2\n');
    const result = await apply(
      patch(
        '*** Update File: app.py',
        '@@ def a():',
        '-    return 1',
        '+    return 10',
        '@@ def b():',
        '-    return 2',
        '+    return 20',
      ),
    );
    expect(result.error).toBeUndefined();
    expect(ws.read('app.py')).toBe('import os\n\ndef a():\n    return 10\n\ndef b():\n    return 20\n');
    expect(text(result)).toBe(
      'Success. Updated the following files:\nM app.py (+2 -2; hunk 1 matched at line 4 ignoring trailing whitespace)',
    );
  });

  it('moves a file and changes it, keeping its mode; the destination directories are created', async () => {
    ws.write('bin/run.sh', '#!/bin/sh\necho old\n');
    chmodSync(join(ws.root, 'bin/run.sh'), 0o755);
    const result = await apply(
      patch(
        '*** Update File: bin/run.sh',
        '*** Move to: scripts/tools/run.sh',
        '@@',
        ' #!/bin/sh',
        '-echo old',
        '+echo new',
      ),
    );
    expect(result.error).toBeUndefined();
    expect(exists('bin/run.sh')).toBe(false);
    expect(ws.read('scripts/tools/run.sh')).toBe('#!/bin/sh\necho new\n');
    expect(statSync(join(ws.root, 'scripts/tools/run.sh')).mode & 0o777).toBe(0o755);
    expect(text(result)).toBe(
      'Success. Updated the following files:\nM bin/run.sh -> scripts/tools/run.sh (+1 -1)',
    );
    expect(result.returnDisplay).toMatch(
      /^--- bin\/run\.sh\tCurrent\n\+\+\+ scripts\/tools\/run\.sh\tProposed\n/m,
    );
  });

  it('moves a file without changing it', async () => {
    ws.write('a.txt', 'same\n');
    const result = await apply(patch('*** Update File: a.txt', '*** Move to: b.txt'));
    expect(result.error).toBeUndefined();
    expect(exists('a.txt')).toBe(false);
    expect(ws.read('b.txt')).toBe('same\n');
    expect(text(result)).toBe('Success. Updated the following files:\nM a.txt -> b.txt');
  });

  it('treats a move to another name of the same file (a link to it) as no move', async () => {
    ws.write('a.txt', 'one\n');
    symlinkSync(join(ws.root, 'a.txt'), join(ws.root, 'alias.txt'));
    const result = await apply(patch('*** Update File: a.txt', '*** Move to: alias.txt', '-one', '+two'));
    expect(result.error).toBeUndefined();
    expect(ws.read('a.txt')).toBe('two\n');
    expect(lstatSync(join(ws.root, 'alias.txt')).isSymbolicLink()).toBe(true);
    expect(text(result)).toBe('Success. Updated the following files:\nM a.txt (+1 -1)');
  });

  it('changes several files in one call and reports each', async () => {
    ws.write('keep.ts', 'a\nb\n');
    ws.write('gone.ts', 'x\n');
    ws.write('from.ts', 'm\n');
    const result = await apply(
      patch(
        '*** Add File: added.ts',
        '+n',
        '*** Delete File: gone.ts',
        '*** Update File: keep.ts',
        ' a',
        '-b',
        '+B',
        '*** Update File: from.ts',
        '*** Move to: to.ts',
        '-m',
        '+M',
      ),
    );
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe(
      [
        'Success. Updated the following files:',
        'A added.ts (+1 -0)',
        'D gone.ts (+0 -1)',
        'M keep.ts (+1 -1)',
        'M from.ts -> to.ts (+1 -1)',
      ].join('\n'),
    );
    expect(result.diffStat).toEqual({ linesAdded: 3, linesRemoved: 3 });
    // No single file diff for a change to several files; the display holds each file's diff.
    expect(result.fileDiff).toBeUndefined();
    for (const name of ['added.ts', 'gone.ts', 'keep.ts', 'to.ts'])
      expect(result.returnDisplay).toContain(`+++ ${name}`);
    expect([ws.read('added.ts'), exists('gone.ts'), ws.read('keep.ts'), ws.read('to.ts')]).toEqual([
      'n\n',
      false,
      'a\nB\n',
      'M\n',
    ]);
  });
});

describe('apply_patch: bytes outside the edited lines never change', () => {
  const update = (file: string, from: string, to: string) =>
    apply(patch(`*** Update File: ${file}`, `-${from}`, `+${to}`));

  it('keeps CRLF line endings', async () => {
    ws.write('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
    await update('crlf.txt', 'two', 'TWO');
    expect(bytes('crlf.txt').toString('latin1')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('keeps each untouched line’s own ending in a file that mixes them', async () => {
    ws.write('mixed.txt', 'a\r\nb\nc\r\nd\ne\r\n');
    await apply(patch('*** Update File: mixed.txt', ' a', '-b', '+B', ' c'));
    // The line that replaces `b` keeps b's ending (LF, though most lines are CRLF): no byte outside
    // the edited text changes (issue N).
    expect(bytes('mixed.txt').toString('latin1')).toBe('a\r\nB\nc\r\nd\ne\r\n');
  });

  it('keeps a UTF-8 byte-order mark and a missing final newline', async () => {
    ws.write('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x\ny\nz')]));
    await update('bom.txt', 'y', 'Y');
    expect(bytes('bom.txt')).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x\nY\nz')]),
    );
  });

  it('keeps UTF-16 files UTF-16', async () => {
    const encode = (value: string) =>
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(value, 'utf16le')]);
    ws.write('wide.txt', encode('alpha\r\nbeta\r\n'));
    await update('wide.txt', 'beta', 'gamma');
    expect(bytes('wide.txt')).toEqual(encode('alpha\r\ngamma\r\n'));
  });

  it('keeps the bytes of a file that is not UTF-8', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6c, 0x64, 0x0a]); // "café\nold\n" in Latin-1
    ws.write('latin1.txt', latin1);
    await update('latin1.txt', 'old', 'new');
    expect(bytes('latin1.txt')).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6e, 0x65, 0x77, 0x0a]));
  });

  it('keeps context lines as the file has them when they matched forgivingly', async () => {
    ws.write('q.txt', 'say “hi”  \nold\n');
    await apply(patch('*** Update File: q.txt', ' say "hi"', '-old', '+new'));
    expect(ws.read('q.txt')).toBe('say “hi”  \nnew\n');
  });

  it('keeps a moved file’s line endings and encoding', async () => {
    ws.write('win.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\r\n')]));
    await apply(patch('*** Update File: win.txt', '*** Move to: moved.txt', '-b', '+c'));
    expect(bytes('moved.txt')).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nc\r\n')]),
    );
  });
});

describe('apply_patch: bad input changes nothing', () => {
  const seed = () => {
    ws.write('a.txt', 'alpha\nbeta\n');
    ws.write('b.txt', 'keep me\n');
  };
  const untouched = () => {
    expect(ws.read('a.txt')).toBe('alpha\nbeta\n');
    expect(ws.read('b.txt')).toBe('keep me\n');
    expect(exists('c.txt')).toBe(false);
  };

  it('a malformed patch is a validation error naming the line and hunk', () => {
    const error = buildError(
      applyPatchTool,
      { input: patch('*** Update File: a.txt', '@@', ' alpha', 'beta') },
      ws.ctx,
    );
    expect(error).toEqual({
      type: 'invalid_tool_params',
      message: expect.stringMatching(
        /^Invalid patch at line 5 \(hunk 1 of "\*\*\* Update File: [^"]+"\): expected a hunk line or the next/,
      ),
    });
  });

  it('a hunk that does not fit one file leaves every file as it was', async () => {
    seed();
    const result = await apply(
      patch(
        '*** Add File: c.txt',
        '+new',
        '*** Delete File: b.txt',
        '*** Update File: a.txt',
        '-alpha',
        '+ALPHA',
        '@@',
        '-gamma',
        '+GAMMA',
      ),
    );
    expect(result.error).toEqual({
      type: 'edit_no_occurrence_found',
      message: expect.stringMatching(
        /^Patch not applied \(no file was changed\): hunk 2 of "\*\*\* Update File: a\.txt" \(patch line 8\): its context and "-" lines were not found after line 1\./,
      ),
    });
    untouched();
  });

  it('ambiguous context is an error naming the hunk', async () => {
    ws.write('dup.txt', 'x = 1\ny\nx = 1\ny\n');
    const result = await apply(patch('*** Update File: dup.txt', '-x = 1', '+x = 2', ' y'));
    expect(result.error).toEqual({
      type: 'edit_expected_occurrence_mismatch',
      message:
        'Patch not applied (no file was changed): hunk 1 of "*** Update File: dup.txt" (patch line 3): its context matches 2 places (lines 1, 3); add context lines that tell them apart, or an "@@" line naming the enclosing function or class.',
    });
    expect(ws.read('dup.txt')).toBe('x = 1\ny\nx = 1\ny\n');
  });

  it.each<[string, string[], RegExp]>([
    [
      'adding a file that exists',
      ['*** Add File: b.txt', '+x'],
      /"\*\*\* Add File: b\.txt" \(patch line 4\): b\.txt already exists/,
    ],
    ['deleting a file that does not exist', ['*** Delete File: c.txt'], /c\.txt does not exist/],
    [
      'updating a file that does not exist',
      ['*** Update File: c.txt', '-x'],
      /c\.txt does not exist\. Create it with "\*\*\* Add File: "/,
    ],
    [
      'moving onto an existing file',
      ['*** Update File: a.txt', '*** Move to: b.txt'],
      /the destination b\.txt already exists/,
    ],
    [
      'changing one file twice',
      ['*** Update File: a.txt', '-alpha', '+A', '*** Delete File: a.txt'],
      /"\*\*\* Update File: a\.txt" already changes a\.txt/,
    ],
    [
      'moving onto a file another operation adds',
      ['*** Add File: c.txt', '+x', '*** Update File: a.txt', '*** Move to: c.txt'],
      /already changes c\.txt/,
    ],
    [
      'a patch that changes nothing',
      ['*** Update File: a.txt', ' alpha', '-beta', '+beta'],
      /the hunks leave the file as it is/,
    ],
  ])('%s is refused, and nothing changes', async (_name, lines, message) => {
    seed();
    const result = await apply(patch('*** Add File: c2.txt', '+first op', ...lines));
    expect(result.error?.message).toMatch(/^Patch not applied \(no file was changed\): /);
    expect(result.error?.message).toMatch(message);
    untouched();
    expect(exists('c2.txt')).toBe(false);
  });

  it('refuses to delete a directory or to update a binary file', async () => {
    ws.write('dir/x.txt', 'x\n');
    ws.write('blob.bin', Buffer.from([0, 1, 2]));
    expect((await apply(patch('*** Delete File: dir'))).error).toMatchObject({ type: 'target_is_directory' });
    expect((await apply(patch('*** Update File: blob.bin', '-x'))).error).toMatchObject({
      type: 'binary_file',
    });
    expect(ws.read('dir/x.txt')).toBe('x\n');
  });

  it('refuses new text a Latin-1 file cannot hold, before writing anything', async () => {
    ws.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const result = await apply(patch('*** Add File: first.txt', '+x', '*** Update File: latin1.txt', '+€'));
    expect(result.error?.message).toMatch(/the new text has a character it cannot hold/);
    expect(exists('first.txt')).toBe(false);
  });
});

describe('apply_patch: a write that fails midway', () => {
  /** The real file system, with the `failAt`-th write or removal throwing instead. */
  function failing(failAt: number): (ctx: ToolContext) => PatchFileSystem {
    let steps = 0;
    return beforePatchWrites(() => {
      steps += 1;
      if (steps === failAt) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    });
  }

  it('puts back every file it had changed, created or removed', async () => {
    ws.write('a.txt', 'alpha\r\nbeta\r\n');
    ws.write('gone.sh', '#!/bin/sh\n');
    chmodSync(join(ws.root, 'gone.sh'), 0o750);
    ws.write('from.txt', 'moving\n');
    const before = { a: bytes('a.txt'), gone: bytes('gone.sh'), from: bytes('from.txt') };
    const tool = createApplyPatchTool({ io: failing(5) });
    const result = await apply(
      patch(
        '*** Update File: a.txt',
        '-beta',
        '+BETA',
        '*** Add File: new/dir/c.txt',
        '+c',
        '*** Delete File: gone.sh',
        '*** Update File: from.txt',
        '*** Move to: elsewhere/to.txt',
        '*** Add File: never.txt',
        '+n',
      ),
      tool,
    );
    // Steps: write a.txt, write c.txt, remove gone.sh, write to.txt, remove from.txt (fails).
    expect(result.error).toEqual({
      type: 'no_space_left',
      message:
        'Patch not applied: "*** Update File: from.txt" failed: disk full. Every file it had changed before was put back; no file was changed.',
    });
    expect(bytes('a.txt')).toEqual(before.a);
    expect(bytes('gone.sh')).toEqual(before.gone);
    expect(statSync(join(ws.root, 'gone.sh')).mode & 0o777).toBe(0o750);
    expect(bytes('from.txt')).toEqual(before.from);
    for (const rel of ['new', 'elsewhere', 'never.txt']) expect(exists(rel), rel).toBe(false);
  });

  it('fails on the first write without touching anything', async () => {
    ws.write('a.txt', 'alpha\n');
    const result = await apply(
      patch('*** Update File: a.txt', '-alpha', '+beta'),
      createApplyPatchTool({ io: failing(1) }),
    );
    expect(result.error?.type).toBe('no_space_left');
    expect(ws.read('a.txt')).toBe('alpha\n');
  });

  it('says which files could not be put back when the undo fails too', async () => {
    ws.write('a.txt', 'alpha\n');
    const tool = createApplyPatchTool({
      io: (ctx) => {
        const real = failing(2)(ctx);
        return {
          ...real,
          restore: async () => {
            throw new Error('read-only now');
          },
        };
      },
    });
    const result = await apply(
      patch('*** Update File: a.txt', '-alpha', '+beta', '*** Add File: b.txt', '+b'),
      tool,
    );
    expect(result.error?.message).toBe(
      `Patch not applied: "*** Add File: b.txt" failed: disk full. Putting back the files changed before it failed for: ${join(ws.root, 'a.txt')} (read-only now).`,
    );
  });
});

describe('apply_patch: approval', () => {
  it('shows the diff of every file, one after another, and the files for front ends that draw diffs', async () => {
    ws.write('a.txt', 'alpha\n');
    ws.write('b.txt', 'beta\n');
    const built = applyPatchTool.build(
      {
        input: patch(
          '*** Update File: a.txt',
          '-alpha',
          '+ALPHA',
          '*** Delete File: b.txt',
          '*** Add File: c.txt',
          '+c',
        ),
      },
      ws.ctx,
    );
    if (!built.ok) throw new Error(built.error.message);
    expect(built.invocation.describe()).toBe('a.txt, b.txt, c.txt');
    expect(built.invocation.locations()).toEqual(
      ['a.txt', 'b.txt', 'c.txt'].map((rel) => join(ws.root, rel)),
    );
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    expect(details).toMatchObject({
      kind: 'edit',
      title: 'Confirm Patch: a.txt, b.txt, c.txt',
      filePath: join(ws.root, 'a.txt'),
      oldContent: 'alpha\n',
      newContent: 'ALPHA\n',
      files: [
        { path: join(ws.root, 'a.txt'), oldText: 'alpha\n', newText: 'ALPHA\n' },
        { path: join(ws.root, 'b.txt'), oldText: 'beta\n', newText: '' },
        { path: join(ws.root, 'c.txt'), oldText: null, newText: 'c\n' },
      ],
    });
    const diff = details.kind === 'edit' ? details.diff : '';
    expect(diff.match(/^\+\+\+ /gm)).toHaveLength(3);
    expect(diff).toContain('-alpha\n+ALPHA');
    expect(diff).toContain('-beta');
    // Asking changed nothing.
    expect([ws.read('a.txt'), ws.read('b.txt'), exists('c.txt')]).toEqual(['alpha\n', 'beta\n', false]);
  });

  it('names a single file like the other edit tools', async () => {
    ws.write('a.txt', 'alpha\n');
    const built = applyPatchTool.build({ input: patch('*** Update File: a.txt', '-alpha', '+beta') }, ws.ctx);
    if (!built.ok) throw new Error(built.error.message);
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    expect(details).toEqual({
      kind: 'edit',
      title: 'Confirm Patch: a.txt',
      filePath: join(ws.root, 'a.txt'),
      diff: expect.stringContaining('-alpha\n+beta'),
      oldContent: 'alpha\n',
      newContent: 'beta\n',
    });
  });

  it('falls back to the generic prompt for a patch that cannot apply, and the run reports why', async () => {
    writeFileSync(join(ws.root, 'a.txt'), 'alpha\n');
    const built = applyPatchTool.build({ input: patch('*** Update File: a.txt', '-nope', '+x') }, ws.ctx);
    if (!built.ok) throw new Error(built.error.message);
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    expect(details.kind).toBe('info');
    const result = await built.invocation.execute({ signal: new AbortController().signal });
    expect(result.error?.type).toBe('edit_no_occurrence_found');
  });
});
