import { linkSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { fileStamp, ParsedFileCache } from '../../src/utils/parsed-file-cache';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

/** The files are written just now: a clock 10 s ahead puts them outside the racy window. */
const later = { clock: () => Date.now() + 10_000 };
/** The bytes an entry is checked against, as discovery reads them. */
const read = (file: string) => readFileSync(file, 'utf8');

describe('fileStamp', () => {
  it('names a file the same through a symlink or a hard link, and nothing for folders and missing paths', () => {
    ws = createTempWorkspace({ 'a.md': 'text', 'dir/x': '' });
    symlinkSync(join(ws.root, 'a.md'), join(ws.root, 'link.md'));
    linkSync(join(ws.root, 'a.md'), join(ws.root, 'hard.md'));
    const stamp = fileStamp(join(ws.root, 'a.md'));
    expect(stamp).toBeDefined();
    expect(fileStamp(join(ws.root, 'link.md'))).toEqual(stamp);
    expect(fileStamp(join(ws.root, 'hard.md'))?.identity).toBe(stamp?.identity);
    expect(fileStamp(join(ws.root, 'dir'))).toBeUndefined();
    expect(fileStamp(join(ws.root, 'missing.md'))).toBeUndefined();
    expect(fileStamp(join(ws.root, 'a.md', 'below'))).toBeUndefined();
  });

  it('changes with a rewrite that keeps the size and puts the mtime back', () => {
    ws = createTempWorkspace({ 'a.md': 'one' });
    const file = join(ws.root, 'a.md');
    utimesSync(file, 1_000_000, 1_000_000);
    const before = fileStamp(file)!;
    writeFileSync(file, 'two');
    utimesSync(file, 1_000_000, 1_000_000);
    const after = fileStamp(file)!;
    expect(after.identity).toBe(before.identity);
    // ctime cannot be set back: it records the write.
    expect(after.version).not.toBe(before.version);
  });
});

describe('ParsedFileCache', () => {
  const setup = () => {
    ws = createTempWorkspace({ 'skill.md': 'v1', 'home/.keep': '' });
    return { file: join(ws.root, 'skill.md'), store: join(ws.root, 'home', 'cache', 'parsed.json') };
  };

  it('returns what was stored, across runs, while the file is unchanged', () => {
    const { file, store } = setup();
    const first = ParsedFileCache.open(store, 'build-1', later);
    expect(first.get('skill\0user\0a', fileStamp(file)!, read(file))).toBeUndefined();
    first.set('skill\0user\0a', fileStamp(file)!, read(file), { name: 'a', count: 2 });
    first.save();
    const second = ParsedFileCache.open(store, 'build-1', later);
    expect(second.get('skill\0user\0a', fileStamp(file)!, read(file))).toEqual({ name: 'a', count: 2 });
    // The same file under another name (another tier) is another parse.
    expect(second.get('skill\0workspace\0a', fileStamp(file)!, read(file))).toBeUndefined();
    expect(second.stats()).toEqual({ hits: 1, misses: 1 });
    // Other bytes than those it was parsed from (the stamp alone matching) miss.
    expect(second.get('skill\0user\0a', fileStamp(file)!, 'v2')).toBeUndefined();
  });

  it('never gives the parse of one text for another, even of the same length and 32-bit hash', () => {
    // Two texts with one FNV-1a (7ba42d0a) and one length: the cache once compared those, and gave
    // the first text's parse for the second.
    const parsedFrom = '---\nname: one\ndescription: woczfa\n---\n';
    const collides = '---\nname: one\ndescription: mfbppa\n---\n';
    ws = createTempWorkspace({ 'SKILL.md': parsedFrom });
    const file = join(ws.root, 'SKILL.md');
    const store = join(ws.root, 'cache.json');
    const writer = ParsedFileCache.open(store, 'build-1', later);
    writer.set('k', fileStamp(file)!, read(file), { description: 'woczfa' });
    writer.save();
    const reader = ParsedFileCache.open(store, 'build-1', later);
    expect(reader.get('k', fileStamp(file)!, collides)).toBeUndefined();
    expect(reader.get('k', fileStamp(file)!, parsedFrom)).toEqual({ description: 'woczfa' });
  });

  it('misses once the file changes, and for a cache written by another build', () => {
    const { file, store } = setup();
    const cache = ParsedFileCache.open(store, 'build-1', later);
    cache.set('k', fileStamp(file)!, read(file), 'parsed v1');
    cache.save();
    expect(
      ParsedFileCache.open(store, 'build-2', later).get('k', fileStamp(file)!, read(file)),
    ).toBeUndefined();
    writeFileSync(file, 'v2');
    expect(
      ParsedFileCache.open(store, 'build-1', later).get('k', fileStamp(file)!, read(file)),
    ).toBeUndefined();
  });

  it('treats a damaged or foreign file as empty and replaces it on save', () => {
    const { file, store } = setup();
    for (const damaged of [
      '{"key":"build-1","entries":',
      'null',
      '[1,2]',
      '{"key":"build-1","entries":[]}',
    ]) {
      const writer = ParsedFileCache.open(store, 'build-1', later);
      writer.set('k', fileStamp(file)!, read(file), 1);
      writer.save();
      writeFileSync(store, damaged);
      const cache = ParsedFileCache.open(store, 'build-1', later);
      expect(cache.get('k', fileStamp(file)!, read(file))).toBeUndefined();
      cache.set('k', fileStamp(file)!, read(file), 2);
      cache.save();
      expect(ParsedFileCache.open(store, 'build-1', later).get('k', fileStamp(file)!, read(file))).toBe(2);
    }
    // Entries of the wrong shape are dropped one by one.
    writeFileSync(store, JSON.stringify({ key: 'build-1', entries: { k: { value: 3 }, j: 'x' } }));
    expect(
      ParsedFileCache.open(store, 'build-1', later).get('k', fileStamp(file)!, read(file)),
    ).toBeUndefined();
  });

  it('writes nothing when nothing was parsed anew, and never throws when it cannot write', () => {
    const { file, store } = setup();
    const idle = ParsedFileCache.open(store, 'build-1', later);
    idle.save();
    expect(() => readFileSync(store)).toThrow(/ENOENT/);
    // A cache path below a file cannot be created.
    const blocked = ParsedFileCache.open(join(file, 'cache.json'), 'build-1', later);
    blocked.set('k', fileStamp(file)!, read(file), 1);
    expect(() => blocked.save()).not.toThrow();
    const disabled = ParsedFileCache.disabled();
    disabled.set('k', fileStamp(file)!, read(file), 1);
    expect(disabled.get('k', fileStamp(file)!, read(file))).toBeUndefined();
  });

  it('keeps, at a save, only the entries the run used: another project’s and deleted files drop out', () => {
    const { file, store } = setup();
    const stamp = fileStamp(file)!;
    const first = ParsedFileCache.open(store, 'build-1', later);
    first.set('project-a', stamp, read(file), 'a');
    first.set('user', stamp, read(file), 'u');
    first.save();
    const second = ParsedFileCache.open(store, 'build-1', later);
    expect(second.get('user', stamp, read(file))).toBe('u');
    second.set('project-b', stamp, read(file), 'b');
    second.save();
    const third = ParsedFileCache.open(store, 'build-1', later);
    expect(third.get('user', stamp, read(file))).toBe('u');
    expect(third.get('project-b', stamp, read(file))).toBe('b');
    expect(third.get('project-a', stamp, read(file))).toBeUndefined();
  });

  it('is private to the user', () => {
    const { file, store } = setup();
    const cache = ParsedFileCache.open(store, 'build-1', later);
    cache.set('k', fileStamp(file)!, read(file), 1);
    cache.save();
    expect(statSync(store).mode & 0o077).toBe(0);
    expect(statSync(join(store, '..')).mode & 0o077).toBe(0);
  });

  it('keeps no parse of a file changed within the racy window', () => {
    ws = createTempWorkspace({ 'a.md': 'v1' });
    const file = join(ws.root, 'a.md');
    const store = join(ws.root, 'cache.json');
    const now = ParsedFileCache.open(store, 'build-1');
    now.set('k', fileStamp(file)!, read(file), 'parsed just after a write');
    now.save();
    expect(
      ParsedFileCache.open(store, 'build-1', later).get('k', fileStamp(file)!, read(file)),
    ).toBeUndefined();
    const after = ParsedFileCache.open(store, 'build-1', later);
    after.set('k', fileStamp(file)!, read(file), 'parsed later');
    after.save();
    expect(ParsedFileCache.open(store, 'build-1', later).get('k', fileStamp(file)!, read(file))).toBe(
      'parsed later',
    );
  });
});
