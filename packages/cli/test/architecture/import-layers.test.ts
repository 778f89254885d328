import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { cycles, type FolderGraph, folderGraph, sourceFiles, topFolderOf } from '@kodo/testkit/import-graph';
import { describe, expect, it } from 'vitest';

const cliSrc = resolve(__dirname, '../../src');

/**
 * The layers of packages/cli/src, top to bottom (docs/architecture.md, "The CLI's layers"). A
 * layer imports only the layers below it and @kodo/core: the program dispatches to one front end;
 * a front end never imports another, only what they share.
 */
const LAYERS: Record<string, number> = {
  // main.ts (the entry and its fast paths), run.ts (arguments, settings, the choice of front end).
  '(root)': 2,
  // The front ends: the terminal UI, headless (-p), ACP, the demo, and the subcommands
  // (`kodo mcp|hooks|skills|…`, `kodo mcp serve` among them).
  ui: 1,
  headless: 1,
  acp: 1,
  demo: 1,
  commands: 1,
  // What the front ends share: arguments, exit codes, folder trust, sessions on disk, settings edits.
  shared: 0,
};

/**
 * The list of what loads on demand (src/on-demand.ts, the bundle's split points) is a table, not
 * a layer: every front end reads it and it names modules of every front end. Its own imports are
 * not counted; instead each use `onDemand.<name>()` counts as an import of that entry's module by
 * the file that calls it, so loading through the list obeys the same layers as a direct import.
 */
const ON_DEMAND = 'on-demand.ts';

/**
 * The layer node a path relative to src/ belongs to (import specifiers come without `.ts`): its
 * folder, and a file directly in src/ is the program's. There are no exceptions: a file the front
 * ends share lives in shared/ (piped stdin: shared/stdin.ts; what it means: core's input/).
 */
function nodeOf(path: string): string {
  const file = /\.tsx?$/.test(path) ? path : `${path}.ts`;
  if (file === ON_DEMAND) return 'on-demand';
  return topFolderOf(path);
}

/** The folder graph with the on-demand list's entries charged to the files that call them. */
function cliGraph(): FolderGraph {
  const graph = folderGraph({ root: cliSrc, nodeOf, ignoreFrom: ['on-demand'] });
  for (const edges of graph.values()) edges.delete('on-demand');
  const entries = new Map(
    [
      ...readFileSync(resolve(cliSrc, ON_DEMAND), 'utf8').matchAll(/(\w+): \(\) => import\('\.\/([^']+)'\)/g),
    ].map((match) => [match[1]!, match[2]!]),
  );
  for (const file of sourceFiles(cliSrc)) {
    const path = relative(cliSrc, file).split('\\').join('/');
    const from = nodeOf(path);
    for (const use of readFileSync(file, 'utf8').matchAll(/\bonDemand\.(\w+)\b/g)) {
      const target = entries.get(use[1]!);
      if (target === undefined || nodeOf(target) === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(nodeOf(target)))
        edges.set(nodeOf(target), `${path} loads onDemand.${use[1]} (${target})`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Every edge that points up or sideways: a layer importing its own level or one above. */
function layerViolations(graph: FolderGraph, layers: Record<string, number>): string[] {
  return [...graph].flatMap(([from, edges]) =>
    [...edges]
      .filter(([to]) => (layers[to] ?? Number.POSITIVE_INFINITY) >= (layers[from] ?? 0))
      .map(([to, why]) => `${from} → ${to} (${why})`),
  );
}

describe('the layers of packages/cli/src (docs/architecture.md)', () => {
  const graph = cliGraph();

  it('has no import cycle between folders, type imports and lazy imports included', () => {
    const found = cycles(graph);
    expect(
      found,
      `import cycles between folders:\n${found.map((edges) => edges.join('\n')).join('\n\n')}`,
    ).toEqual([]);
  });

  it('gives every folder a layer (a new folder is placed here and in docs/architecture.md)', () => {
    const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((edges) => [...edges.keys()])]);
    expect([...nodes].filter((node) => !(node in LAYERS))).toEqual([]);
  });

  it('lets front ends import only shared/, never each other, and shared/ import nothing above it', () => {
    expect(layerViolations(graph, LAYERS)).toEqual([]);
  });

  it('charges a load through the on-demand list to its caller', () => {
    // run.ts starts the front ends through the list: the program imports each of them.
    expect([...(graph.get('(root)')?.keys() ?? [])]).toEqual(expect.arrayContaining(['headless', 'ui']));
    expect(graph.has('on-demand')).toBe(false);
  });

  it('finds a front end importing another (the check itself works)', () => {
    const sideways: FolderGraph = new Map([
      ['acp', new Map([['headless', 'acp/agent.ts imports ../headless/mcp-input']])],
      ['headless', new Map([['shared', 'headless/json.ts imports ../shared/exit-codes']])],
    ]);
    expect(layerViolations(sideways, LAYERS)).toEqual([
      'acp → headless (acp/agent.ts imports ../headless/mcp-input)',
    ]);
  });
});
