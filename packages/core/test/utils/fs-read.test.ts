import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/utils/compare';
import { pathIdentity, readTextIfExists } from '../../src/utils/fs-read';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-fs-read-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readTextIfExists', () => {
  it('reads a file and answers undefined for a missing one or a folder', () => {
    writeFileSync(join(dir, 'a.txt'), 'hello');
    mkdirSync(join(dir, 'folder'));
    expect(readTextIfExists(join(dir, 'a.txt'))).toBe('hello');
    expect(readTextIfExists(join(dir, 'missing.txt'))).toBeUndefined();
    expect(readTextIfExists(join(dir, 'folder'))).toBeUndefined();
  });
});

describe('pathIdentity', () => {
  it('is the same through a symlink or `..`, different for another file, the path when missing', () => {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'SKILL.md'), 'x');
    writeFileSync(join(dir, 'other.md'), 'x');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    const file = pathIdentity(join(dir, 'real', 'SKILL.md'));
    expect(pathIdentity(join(dir, 'link', 'SKILL.md'))).toBe(file);
    expect(pathIdentity(join(dir, 'link', '..', 'real', 'SKILL.md'))).toBe(file);
    expect(pathIdentity(join(dir, 'link'))).toBe(pathIdentity(join(dir, 'real')));
    expect(pathIdentity(join(dir, 'other.md'))).not.toBe(file);
    expect(pathIdentity(join(dir, 'missing'))).toBe(join(dir, 'missing'));
    expect(pathIdentity(join(dir, 'dangling'))).toBe(join(dir, 'dangling'));
    expect(pathIdentity(join(dir, 'other.md', 'below'))).toBe(join(dir, 'other.md', 'below'));
  });
});

describe('compareCodeUnits', () => {
  it('orders by code unit, stable for equal names', () => {
    expect(['b', 'B', 'a', 'a'].sort(compareCodeUnits)).toEqual(['B', 'a', 'a', 'b']);
    expect(compareCodeUnits('x', 'x')).toBe(0);
  });
});
