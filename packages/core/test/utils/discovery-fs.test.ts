import { readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeDiscoveryFs, pathStamp } from '../../src/utils/discovery-fs';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

const pathStampNow = (path: string) => pathStamp(nodeDiscoveryFs.stat(path));

describe('nodeDiscoveryFs', () => {
  it('lists a tree as node:fs does, following a linked folder', () => {
    ws = createTempWorkspace({ 'a/x.toml': 'x', 'a/b/y.md': 'y', 'a/b/c/z.md': 'z', 'other/w.md': 'w' });
    const root = ws.root;
    symlinkSync(join(root, 'other'), join(root, 'a/linked'));
    const tree = nodeDiscoveryFs.listTree(join(root, 'a')).sort();
    expect(tree).toEqual(readdirSync(join(root, 'a'), { recursive: true, encoding: 'utf8' }).sort());
    expect(tree).toContain(join('linked', 'w.md'));
    expect(nodeDiscoveryFs.readText(join(root, 'a/x.toml'))).toBe('x');
    expect(nodeDiscoveryFs.existsSync(join(root, 'missing'))).toBe(false);
    expect(pathStampNow(join(root, 'missing'))).toBe('-');
    expect(pathStampNow(join(root, 'a'))).toMatch(/^d:/);
  });

  it('lists a folder linked from inside itself once', () => {
    ws = createTempWorkspace({ 'a/x.md': 'x' });
    symlinkSync(join(ws.root, 'a'), join(ws.root, 'a/loop'));
    expect(nodeDiscoveryFs.listTree(join(ws.root, 'a')).sort()).toEqual(['loop', 'x.md']);
  });

  it('gives a file a new stamp when it is rewritten with its size and mtime put back', async () => {
    ws = createTempWorkspace({ 'f.md': 'aaaa' });
    const file = join(ws.root, 'f.md');
    utimesSync(file, 1_000, 1_000);
    const before = pathStampNow(file);
    await new Promise((done) => setTimeout(done, 25));
    writeFileSync(file, 'bbbb');
    utimesSync(file, 1_000, 1_000);
    expect(pathStampNow(file)).not.toBe(before);
  });
});
