import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool, createApplyPatchTool } from '../../src/tools/builtin/apply-patch';
import type { Tool } from '../../src/tools/tool';
import { beforePatchWrites, buildError, outsideWithLinks, runTool } from './helpers';

/**
 * A wrong or prompt-injected model attacks the workspace boundary through a patch: paths that
 * climb out, absolute paths, links that lead out, moves out of the workspace, deletions outside.
 * Every one is refused before anything is written, for the whole patch, and nothing outside the
 * workspace is read, created, changed or removed.
 */
let ws: TempWorkspace;
let outside: string;
let cleanupOutside: () => void;
beforeEach(() => {
  ws = createTempWorkspace({ 'inside.txt': 'inside\n', 'src/app.ts': 'app\n' });
  ({ outside, cleanup: cleanupOutside } = outsideWithLinks(ws.root));
});
afterEach(() => {
  ws.cleanup();
  cleanupOutside();
});

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
const outsideFiles = () => readdirSync(outside).sort();
const secret = () => readFileSync(join(outside, 'secret.txt'), 'utf8');

function expectRefusedUnchanged(input: string) {
  const error = buildError(applyPatchTool, { input }, ws.ctx);
  expect(error?.type).toBe('path_not_in_workspace');
  expect(error?.message).toMatch(
    /^Patch not applied \(no file was changed\): "\*\*\* (Add|Delete|Update) File: /,
  );
  expect(outsideFiles()).toEqual(['secret.txt']);
  expect(secret()).toBe('top secret\n');
  expect(readFileSync(join(ws.root, 'inside.txt'), 'utf8')).toBe('inside\n');
}

describe('apply_patch refuses paths outside the workspace', () => {
  it.each<[string, string[]]>([
    ['adding with ..', ['*** Add File: ../escaped.txt', '+x']],
    ['adding deep with ..', ['*** Add File: src/../../escaped.txt', '+x']],
    ['adding at an absolute path', ['*** Add File: /tmp/kodo-apply-patch-escape.txt', '+x']],
    ['updating through a link to a file outside', ['*** Update File: link-file', '-top secret', '+owned']],
    ['adding under a link to a directory outside', ['*** Add File: link-dir/planted.txt', '+x']],
    ['adding through a dangling link that points outside', ['*** Add File: link-dangling', '+x']],
    ['deleting with ..', ['*** Delete File: ../secret.txt']],
    ['deleting through a link to a directory outside', ['*** Delete File: link-dir/secret.txt']],
    ['deleting a link to a file outside', ['*** Delete File: link-file']],
    ['moving a file out of the workspace', ['*** Update File: inside.txt', '*** Move to: ../stolen.txt']],
    [
      'moving a file into a link to a directory outside',
      ['*** Update File: inside.txt', '*** Move to: link-dir/stolen.txt'],
    ],
    [
      'moving a file to an absolute path',
      ['*** Update File: inside.txt', '*** Move to: /tmp/kodo-stolen.txt'],
    ],
  ])('%s', (_name, lines) => {
    expectRefusedUnchanged(patch(...lines));
    expect(existsSync('/tmp/kodo-apply-patch-escape.txt')).toBe(false);
    expect(existsSync('/tmp/kodo-stolen.txt')).toBe(false);
  });

  it('refuses the whole patch when one path of many leads out', () => {
    expectRefusedUnchanged(
      patch(
        '*** Add File: fine.txt',
        '+fine',
        '*** Update File: inside.txt',
        '-inside',
        '+changed',
        '*** Delete File: ../x',
      ),
    );
    expect(existsSync(join(ws.root, 'fine.txt'))).toBe(false);
  });

  it('absolute paths inside the workspace are fine', async () => {
    const result = await runTool(
      applyPatchTool,
      { input: patch(`*** Add File: ${join(ws.root, 'abs.txt')}`, '+ok') },
      ws.ctx,
    );
    expect(result.error).toBeUndefined();
    expect(readFileSync(join(ws.root, 'abs.txt'), 'utf8')).toBe('ok\n');
  });
});

describe('apply_patch and links inside the workspace', () => {
  beforeEach(() => {
    symlinkSync(join(ws.root, 'inside.txt'), join(ws.root, 'alias.txt'));
  });

  it('refuses to delete a link (it deletes and moves regular files only); both stay', async () => {
    const result = await runTool(applyPatchTool, { input: patch('*** Delete File: alias.txt') }, ws.ctx);
    expect(result.error?.message).toMatch(
      /alias\.txt is a symbolic link; a patch deletes and moves regular files only/,
    );
    expect(lstatSync(join(ws.root, 'alias.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(ws.root, 'inside.txt'), 'utf8')).toBe('inside\n');
  });

  it('refuses to move a link', async () => {
    const result = await runTool(
      applyPatchTool,
      { input: patch('*** Update File: alias.txt', '*** Move to: moved.txt') },
      ws.ctx,
    );
    expect(result.error?.message).toMatch(/is a symbolic link/);
    expect(existsSync(join(ws.root, 'moved.txt'))).toBe(false);
  });

  it('refuses a patch that changes one file by two names', async () => {
    const result = await runTool(
      applyPatchTool,
      {
        input: patch(
          '*** Update File: inside.txt',
          '-inside',
          '+one',
          '*** Update File: alias.txt',
          '-inside',
          '+two',
        ),
      },
      ws.ctx,
    );
    expect(result.error?.message).toMatch(/"\*\*\* Update File: inside\.txt" already changes/);
    expect(readFileSync(join(ws.root, 'inside.txt'), 'utf8')).toBe('inside\n');
  });

  it('updates through a link that stays inside, as the other edit tools do', async () => {
    const result = await runTool(
      applyPatchTool,
      { input: patch('*** Update File: alias.txt', '-inside', '+updated') },
      ws.ctx,
    );
    expect(result.error).toBeUndefined();
    expect(lstatSync(join(ws.root, 'alias.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(ws.root, 'inside.txt'), 'utf8')).toBe('updated\n');
  });
});

describe('apply_patch when a directory is swapped for a link to the outside after the checks', () => {
  /** Swaps `dir` for a link to the outside right before the patch's first write or removal. */
  function swapping(): Tool {
    return createApplyPatchTool({
      io: beforePatchWrites(() => {
        if (lstatSync(join(ws.root, 'dir')).isSymbolicLink()) return;
        renameSync(join(ws.root, 'dir'), join(ws.root, 'dir.aside'));
        symlinkSync(outside, join(ws.root, 'dir'));
      }),
    });
  }

  beforeEach(() => {
    mkdirSync(join(ws.root, 'dir'));
    // The same name inside and outside: a write or removal that followed the link would hit it.
    writeFileSync(join(ws.root, 'dir', 'secret.txt'), 'inside copy\n');
  });

  it('a write lands nowhere outside', async () => {
    const result = await runTool(
      swapping(),
      { input: patch('*** Update File: dir/secret.txt', '-inside copy', '+overwritten') },
      ws.ctx,
    );
    expect(result.error?.type).toBe('path_not_in_workspace');
    expect(secret()).toBe('top secret\n');
    expect(outsideFiles()).toEqual(['secret.txt']);
  });

  it('a removal removes nothing outside', async () => {
    const result = await runTool(swapping(), { input: patch('*** Delete File: dir/secret.txt') }, ws.ctx);
    expect(result.error?.type).toBe('path_not_in_workspace');
    expect(secret()).toBe('top secret\n');
    rmSync(join(ws.root, 'dir'));
    renameSync(join(ws.root, 'dir.aside'), join(ws.root, 'dir'));
    expect(readFileSync(join(ws.root, 'dir', 'secret.txt'), 'utf8')).toBe('inside copy\n');
  });
});
