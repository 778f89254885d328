import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AtomicWriteFs, atomicWriteFile } from '../../src/tools/atomic-write';
import { writeFileTool } from '../../src/tools/builtin/write-file';
import { writeTextFile } from '../../src/tools/file-text';
import { runTool } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const bytes = (text: string) => Buffer.from(text);
const mode = (path: string) => statSync(path).mode & 0o777;

/** Real file system calls, except that the temp file's handle writes through `writeFile`. */
function withWrite(writeFile: (real: FileHandle, data: Uint8Array) => Promise<void>): AtomicWriteFs {
  return {
    ...fsPromises,
    open: (async (...args: Parameters<typeof fsPromises.open>) => {
      const real = await fsPromises.open(...args);
      return new Proxy(real, {
        get(target, prop) {
          if (prop === 'writeFile') return (data: Uint8Array) => writeFile(target, data);
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    }) as typeof fsPromises.open,
  };
}

describe('atomicWriteFile', () => {
  it('replaces the content and leaves no temp file behind', async () => {
    const path = ws.write('a.txt', 'old');
    await atomicWriteFile(path, bytes('new content'));
    expect(readFileSync(path, 'utf8')).toBe('new content');
    expect(readdirSync(ws.root)).toEqual(['a.txt']);
  });

  it('creates a new file with the default mode', async () => {
    const path = join(ws.root, 'fresh.txt');
    await atomicWriteFile(path, bytes('hi'));
    expect(readFileSync(path, 'utf8')).toBe('hi');
    expect(mode(path)).toBe(0o666 & ~process.umask());
  });

  it('keeps the permission bits of an existing file', async () => {
    const script = ws.write('run.sh', '#!/bin/sh\n');
    await fsPromises.chmod(script, 0o750);
    const secret = ws.write('secret.txt', 'x');
    await fsPromises.chmod(secret, 0o600);
    await atomicWriteFile(script, bytes('#!/bin/sh\necho hi\n'));
    await atomicWriteFile(secret, bytes('y'));
    expect(mode(script)).toBe(0o750);
    expect(mode(secret)).toBe(0o600);
  });

  it('writes through a symlink, which stays a symlink', async () => {
    const target = ws.write('real.txt', 'old');
    symlinkSync(target, join(ws.root, 'link.txt'));
    await atomicWriteFile(join(ws.root, 'link.txt'), bytes('new'));
    expect(lstatSync(join(ws.root, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(readdirSync(ws.root).sort()).toEqual(['link.txt', 'real.txt']);
  });

  it('never shows readers a half-written file', async () => {
    const path = ws.write('a.txt', 'old content');
    let release!: () => void;
    const halfway = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reachedHalf!: () => void;
    const atHalf = new Promise<void>((resolve) => {
      reachedHalf = resolve;
    });
    const fs = withWrite(async (real, data) => {
      await real.write(data.subarray(0, 4));
      reachedHalf();
      await halfway;
      await real.write(data.subarray(4));
    });
    const writing = atomicWriteFile(path, bytes('new content that is longer'), { fs });
    await atHalf;
    expect(readFileSync(path, 'utf8')).toBe('old content');
    release();
    await writing;
    expect(readFileSync(path, 'utf8')).toBe('new content that is longer');
  });

  it('keeps the old content and removes the temp file when writing fails midway', async () => {
    const path = ws.write('a.txt', 'old content');
    const fs = withWrite(async (real, data) => {
      await real.write(data.subarray(0, 3));
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    });
    await expect(atomicWriteFile(path, bytes('new content'), { fs })).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(readFileSync(path, 'utf8')).toBe('old content');
    expect(readdirSync(ws.root)).toEqual(['a.txt']);
  });

  it('keeps the old content and removes the temp file when the rename fails', async () => {
    const path = ws.write('a.txt', 'old content');
    const fs: AtomicWriteFs = {
      ...fsPromises,
      rename: async () => {
        throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      },
    };
    await expect(atomicWriteFile(path, bytes('new'), { fs })).rejects.toMatchObject({ code: 'EIO' });
    expect(readFileSync(path, 'utf8')).toBe('old content');
    expect(readdirSync(ws.root)).toEqual(['a.txt']);
  });

  it('refuses to replace a file it may not write, as a plain write would', async () => {
    const path = ws.write('locked.txt', 'old');
    const fs: AtomicWriteFs = {
      ...fsPromises,
      access: async () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    };
    await expect(atomicWriteFile(path, bytes('new'), { fs })).rejects.toMatchObject({ code: 'EACCES' });
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(ws.root)).toEqual(['locked.txt']);
  });

  it('fails cleanly when the target is a directory', async () => {
    mkdirSync(join(ws.root, 'dir'));
    writeFileSync(join(ws.root, 'dir', 'inner.txt'), 'keep');
    await expect(atomicWriteFile(join(ws.root, 'dir'), bytes('x'))).rejects.toHaveProperty('code');
    expect(readdirSync(ws.root)).toEqual(['dir']);
    expect(readFileSync(join(ws.root, 'dir', 'inner.txt'), 'utf8')).toBe('keep');
  });
});

describe('atomic writes through the tools', () => {
  it('keeps the line endings, BOM and mode of the file write_file overwrites', async () => {
    const path = ws.write('win.txt', '\ufeffone\r\ntwo\r\n');
    await fsPromises.chmod(path, 0o640);
    const inodeBefore = statSync(path).ino;
    const result = await runTool(writeFileTool, { file_path: 'win.txt', content: 'uno\ndos\n' }, ws.ctx);
    expect(result.error).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('\ufeffuno\r\ndos\r\n');
    expect(mode(path)).toBe(0o640);
    expect(readdirSync(ws.root)).toEqual(['win.txt']);
    // A new inode: the content arrived by rename, not by rewriting the old file in place.
    expect(statSync(path).ino).not.toBe(inodeBefore);
  });

  it('leaves no stray files when a write fails', async () => {
    ws.write('blocker', 'a file where a directory should be');
    await expect(
      writeTextFile(join(ws.root, 'blocker', 'x.txt'), 'x', { encoding: 'utf8', lineEnding: 'lf' }),
    ).rejects.toHaveProperty('code');
    const result = await runTool(writeFileTool, { file_path: 'blocker/x.txt', content: 'x' }, ws.ctx);
    expect(result.error?.type).toBe('file_write_failure');
    expect(readdirSync(ws.root)).toEqual(['blocker']);
    expect(readFileSync(join(ws.root, 'blocker'), 'utf8')).toBe('a file where a directory should be');
  });
});
