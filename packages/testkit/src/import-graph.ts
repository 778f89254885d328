import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The import graph between the folders of a package's src/, for the architecture tests that keep
 * each package's layers acyclic (packages/core/test/architecture, packages/cli/test/architecture).
 * Relative imports only: a package's imports of other packages are checked by the packages' own
 * dependency lists.
 */

/** Folder → folders it imports, each edge with one file that makes it (`a/x.ts imports ../b/y`). */
export type FolderGraph = Map<string, Map<string, string>>;

/** Every TypeScript file under a directory. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Relative specifiers of every import, type import, re-export and dynamic import in a file. */
export function importsOf(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]/g),
    ...source.matchAll(/\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g),
    ...source.matchAll(/\brequire\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g),
    ...source.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm),
  ];
  return specifiers.map((match) => match[1]!);
}

/** The top-level folder a path (relative to src/) belongs to; `(root)` for files directly in src/. */
export function topFolderOf(path: string): string {
  return path.includes('/') ? path.split('/')[0]! : '(root)';
}

export interface FolderGraphOptions {
  /** The package's src/ directory. */
  root: string;
  /** The node a file (its path relative to root, `/`-separated) belongs to; by default its top folder. */
  nodeOf?: (path: string) => string;
  /** Nodes whose outgoing edges are not part of the layering (core's index.ts, the public surface). */
  ignoreFrom?: string[];
}

/** Node → nodes it imports, type imports included, each edge with the first import that makes it. */
export function folderGraph(options: FolderGraphOptions): FolderGraph {
  const nodeOf = options.nodeOf ?? topFolderOf;
  const ignored = new Set(options.ignoreFrom ?? []);
  const graph: FolderGraph = new Map();
  for (const file of sourceFiles(options.root)) {
    const path = relative(options.root, file).split('\\').join('/');
    const from = nodeOf(path);
    if (ignored.has(from)) continue;
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = relative(options.root, resolve(dirname(file), specifier))
        .split('\\')
        .join('/');
      const to = nodeOf(target);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${path} imports ${specifier}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Each cycle as its edges with the import that makes each one (Tarjan's components, then a walk). */
export function cycles(graph: FolderGraph): string[][] {
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
