import { readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { currentPathStamp, nodeDiscoveryFs, RecordingDiscoveryFs } from '../../src/utils/discovery-fs';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

describe('RecordingDiscoveryFs', () => {
  it('reads as node:fs does, and stamps every path it was asked about, absent ones included', () => {
    ws = createTempWorkspace({ 'a/x.toml': 'x', 'a/b/y.md': 'y', 'a/b/c/z.md': 'z', 'other/w.md': 'w' });
    const root = ws.root;
    symlinkSync(join(root, 'other'), join(root, 'a/linked'));
    const fs = new RecordingDiscoveryFs();
    const tree = fs.listTree(join(root, 'a')).sort();
    expect(tree).toEqual(readdirSync(join(root, 'a'), { recursive: true, encoding: 'utf8' }).sort());
    expect(tree).toEqual(nodeDiscoveryFs.listTree(join(root, 'a')).sort());
    expect(tree).toContain(join('linked', 'w.md'));
    expect(fs.readText(join(root, 'a/x.toml'))).toBe('x');
    expect(fs.existsSync(join(root, 'missing'))).toBe(false);
    expect(() => fs.readText(join(root, 'gone.md'))).toThrow(/ENOENT/);
    const stamps = new Map(fs.observations());
    expect([...stamps.keys()].sort()).toEqual(
      ['a', 'a/b', 'a/b/c', 'a/linked', 'a/x.toml', 'missing', 'gone.md']
        .map((rel) => join(root, rel))
        .sort(),
    );
    expect(stamps.get(join(root, 'missing'))).toBe('-');
    expect(stamps.get(join(root, 'a'))).toMatch(/^d:/);
    expect(stamps.get(join(root, 'a/x.toml'))).toBe(currentPathStamp(join(root, 'a/x.toml')));
    expect(fs.newestChangeNs()).toBeGreaterThan(BigInt(Date.now() - 60_000) * 1_000_000n);
  });

  it('lists a folder linked from inside itself once', () => {
    ws = createTempWorkspace({ 'a/x.md': 'x' });
    symlinkSync(join(ws.root, 'a'), join(ws.root, 'a/loop'));
    expect(new RecordingDiscoveryFs().listTree(join(ws.root, 'a')).sort()).toEqual(['loop', 'x.md']);
  });

  it('gives a file a new stamp when it is rewritten with its size and mtime put back', async () => {
    ws = createTempWorkspace({ 'f.md': 'aaaa' });
    const file = join(ws.root, 'f.md');
    utimesSync(file, 1_000, 1_000);
    const before = currentPathStamp(file);
    await new Promise((done) => setTimeout(done, 25));
    writeFileSync(file, 'bbbb');
    utimesSync(file, 1_000, 1_000);
    expect(currentPathStamp(file)).not.toBe(before);
  });

  it('gives a folder a new stamp when an entry is added to it', async () => {
    ws = createTempWorkspace({ 'd/one.md': '1' });
    const before = currentPathStamp(join(ws.root, 'd'));
    await new Promise((done) => setTimeout(done, 25));
    writeFileSync(join(ws.root, 'd/two.md'), '2');
    expect(currentPathStamp(join(ws.root, 'd'))).not.toBe(before);
  });
});
