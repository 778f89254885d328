/**
 * Built-ins loaded on first use go through core's `loadBuiltin` (`process.getBuiltinModule`), never
 * `import('node:…')`: Node links a dynamic import of a built-in through an ES module facade that
 * reads every export, and on Node 22+ reading `node:http`'s exports loads undici (50–65 ms on every
 * run that talks to an http:// model server; docs/performance.md, session 13).
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

describe('built-ins loaded on first use', () => {
  it('are never imported with import() in the sources (types excepted)', () => {
    const files = ['packages/core/src', 'packages/cli/src'].flatMap((dir) => sourceFiles(join(root, dir)));
    expect(files.length).toBeGreaterThan(100);
    // A value import: `await import('node:…')`, `return import(…)`, `= import(…)`, `(import(…)`.
    const valueImport = /(?:\bawait|\breturn|=|\(|,)\s*import\(\s*['"`]node:/;
    const offenders = files.filter((file) => valueImport.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
  });

  it('come back as the modules themselves, with nothing copied', () => {
    expect(loadBuiltin('node:http')).toBe(process.getBuiltinModule('node:http'));
    expect(typeof loadBuiltin('node:https').request).toBe('function');
    expect(typeof loadBuiltin('node:child_process').spawn).toBe('function');
  });
});
