import { resolve } from 'node:path';
import { cycles, folderGraph } from '@kodo/testkit/import-graph';
import { describe, expect, it } from 'vitest';

const coreSrc = resolve(__dirname, '../../src');

describe('the layers of packages/core/src (docs/architecture.md)', () => {
  // index.ts and engine.ts (the root) are the public surface: they re-export every layer.
  const graph = folderGraph({ root: coreSrc, ignoreFrom: ['(root)'] });

  it('has no import cycle between folders, type imports included', () => {
    const found = cycles(graph);
    expect(
      found,
      `import cycles between folders:\n${found.map((edges) => edges.join('\n')).join('\n\n')}`,
    ).toEqual([]);
  });

  it('keeps contracts and utils as leaves that import nothing else in core', () => {
    expect([...(graph.get('contracts')?.values() ?? [])]).toEqual([]);
    expect([...(graph.get('utils')?.values() ?? [])]).toEqual([]);
  });

  it('keeps the runtime and the sdk on top: only the sdk imports the runtime, nothing imports the sdk', () => {
    const importers = (folder: string, allowed: string[]) =>
      [...graph]
        .filter(([from, edges]) => edges.has(folder) && !allowed.includes(from))
        .map(([, edges]) => edges.get(folder));
    expect(importers('runtime', ['sdk'])).toEqual([]);
    expect(importers('sdk', [])).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const looped = new Map([
      ['a', new Map([['b', 'a/x.ts imports ../b/y']])],
      ['b', new Map([['a', 'b/y.ts imports ../a/x']])],
    ]);
    expect(cycles(looped)).toEqual([['b → a (b/y.ts imports ../a/x)', 'a → b (a/x.ts imports ../b/y)']]);
  });
});
