import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/utils/compare';
import { readTextIfExists, realPathOr } from '../../src/utils/fs-read';

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

describe('realPathOr', () => {
  it('resolves symlinks and falls back for missing paths and dangling links', () => {
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(realPathOr(join(dir, 'link'))).toBe(join(dir, 'real'));
    expect(realPathOr(join(dir, 'missing'))).toBe(join(dir, 'missing'));
    expect(realPathOr(join(dir, 'missing'), 'fallback')).toBe('fallback');
    expect(realPathOr(join(dir, 'dangling'))).toBe(join(dir, 'dangling'));
  });
});

describe('compareCodeUnits', () => {
  it('orders by code unit, stable for equal names', () => {
    expect(['b', 'B', 'a', 'a'].sort(compareCodeUnits)).toEqual(['B', 'a', 'a', 'b']);
    expect(compareCodeUnits('x', 'x')).toBe(0);
  });
});
