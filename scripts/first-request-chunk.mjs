// The code of `kodo -p`'s way to its first request in one chunk of the bundle (issue O).
//
// esbuild puts each module into the chunk of the set of entry points that reach it, and every
// `import()` in the on-demand lists is an entry point. The many subsets of the engine that the
// on-demand parts import split the first request's modules over ~45 small files, and Node 20's
// ES module loader pays for each file (resolve, read, link) with no compile cache to hide it.
// So every on-demand module also imports the roots of the first request: then every module of
// that path is reached by every entry point, and they all share one chunk. That costs an
// on-demand part nothing it does not load anyway (each runs after the cli entry has loaded the
// engine), except for the few kodo subcommands that use no session.

import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The files that list what loads on demand (packages/cli/test/build/on-demand-list.test.ts). */
const ON_DEMAND_LISTS = ['packages/core/src/on-demand.ts', 'packages/cli/src/on-demand.ts'];

/**
 * The root of the first request of `kodo -p`: the cli's entry. Everything it imports statically
 * is the path, the headless mode and the default provider's client (Gemini) included.
 */
export const FIRST_REQUEST_ROOTS = ['packages/cli/src/run.ts'];

function sourceFile(dir, specifier) {
  for (const suffix of ['.ts', '.tsx', '/index.ts', '/index.tsx']) {
    const path = join(dir, `${specifier}${suffix}`);
    if (existsSync(path)) return path;
  }
  throw new Error(`on-demand module not found: ${specifier} (from ${dir})`);
}

/** The absolute paths of every module the on-demand lists import. */
export function onDemandModules(root) {
  const modules = new Set();
  for (const list of ON_DEMAND_LISTS) {
    const dir = dirname(join(root, list));
    for (const match of readFileSync(join(root, list), 'utf8').matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)) {
      modules.add(sourceFile(dir, match[1]));
    }
  }
  return modules;
}

/** The esbuild plugin: each on-demand module also imports the first request's roots. */
export function firstRequestChunk(root) {
  const onDemand = onDemandModules(root);
  const roots = FIRST_REQUEST_ROOTS.map((path) => join(root, path));
  for (const path of roots) if (!existsSync(path)) throw new Error(`first-request root not found: ${path}`);
  return {
    name: 'first-request-chunk',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (!onDemand.has(args.path)) return undefined;
        const source = await readFile(args.path, 'utf8');
        const imports = roots
          .filter((path) => path !== args.path)
          .map((path) => `import ${JSON.stringify(path)};`)
          .join('\n');
        return { contents: `${source}\n${imports}\n`, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
      });
    },
  };
}
