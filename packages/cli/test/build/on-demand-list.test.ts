/**
 * What loads on demand is listed in one file per package (issue O): packages/core/src/on-demand.ts
 * for the engine's parts, packages/cli/src/on-demand.ts for the cli's modes and screens. A
 * dynamic `import()` of one of kodo's own modules anywhere else is a loader outside the list.
 *
 * Built-ins loaded on first use go through core's `loadBuiltin` (`process.getBuiltinModule`),
 * never `import('node:…')`: Node links a dynamic import of a built-in through an ES module facade
 * that reads every export, and on Node 22+ reading `node:http`'s exports loads undici (50–65 ms on
 * every run that talks to an http:// model server; docs/performance.md, session 13).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBuiltin } from '../../../core/src/utils/builtin';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('modules loaded on demand', () => {
  it('are imported dynamically only from the on-demand list of each package', () => {
    const lists = ['packages/core/src/on-demand.ts', 'packages/cli/src/on-demand.ts'];
    const files = ['packages/core/src', 'packages/cli/src'].flatMap((dir) => sourceFiles(join(root, dir)));
    // `import('./x')` as a value; `typeof import('./x')` and `: import('./x').T` are types.
    const dynamicRelativeImport = /(?<!typeof |: )\bimport\(\s*['"]\.\.?\//;
    const outside = files
      .map((file) => relative(root, file))
      // The entry's one import of the bundle is the seam itself.
      .filter((file) => !lists.includes(file) && file !== 'packages/cli/src/main.ts')
      .filter((file) => dynamicRelativeImport.test(readFileSync(join(root, file), 'utf8')));
    expect(outside).toEqual([]);
    for (const list of lists) {
      expect(readFileSync(join(root, list), 'utf8')).toMatch(dynamicRelativeImport);
    }
  });

  it("are never Node's built-ins: those come from loadBuiltin, the modules themselves", () => {
    const files = ['packages/core/src', 'packages/cli/src'].flatMap((dir) => sourceFiles(join(root, dir)));
    expect(files.length).toBeGreaterThan(100);
    // A value import: `await import('node:…')`, `return import(…)`, `= import(…)`, `(import(…)`.
    const builtinImport = /(?:\bawait|\breturn|=|\(|,)\s*import\(\s*['"`]node:/;
    const offenders = files.filter((file) => builtinImport.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
    expect(loadBuiltin('node:http')).toBe(process.getBuiltinModule('node:http'));
    expect(typeof loadBuiltin('node:child_process').spawn).toBe('function');
  });
});
