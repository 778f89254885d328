import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const coreSrc = resolve(__dirname, '../../src');

/** Every TypeScript file under a directory. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Relative specifiers of every import, type import, re-export and dynamic import in a file. */
function importsOf(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]/g),
    ...source.matchAll(/\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g),
    ...source.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm),
  ];
  return specifiers.map((match) => match[1]!);
}

/** The top-level folder of core a file belongs to (`(root)` for files directly in src/). */
function folderOf(file: string): string {
  const path = relative(coreSrc, file);
  return path.includes('/') ? path.split('/')[0]! : '(root)';
}

/** Folder → folders it imports, each edge with one file that makes it. */
export function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(coreSrc)) {
    const from = folderOf(file);
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const to = folderOf(resolve(dirname(file), specifier));
      if (to === from || from === '(root)') continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${relative(coreSrc, file)} imports ${specifier}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Each cycle as its edges with the import that makes each one (Tarjan's components, then a walk). */
export function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components.map((component) => {
    const members = new Set(component);
    return component.flatMap((from) =>
      [...(graph.get(from) ?? new Map<string, string>())]
        .filter(([to]) => members.has(to))
        .map(([to, why]) => `${from} → ${to} (${why})`),
    );
  });
}

describe('the layers of packages/core/src (docs/architecture.md)', () => {
  const graph = folderGraph();

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
