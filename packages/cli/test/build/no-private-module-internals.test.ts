/**
 * Start-up uses only Node's public module API (issue O): nothing in kodo's sources, build
 * scripts, benchmarks or the `kodo` command may touch `Module._*` (the private internals of
 * Node's CommonJS loader, which change between Node versions without notice).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.kodo-bench']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(c|m)?(j|t)sx?$/.test(entry.name) ? [path] : [];
  });
}

describe("Node's private module internals", () => {
  it('appear nowhere in the sources, scripts, benchmarks or the bin entry', () => {
    const places = ['packages/core', 'packages/cli', 'packages/testkit', 'scripts', 'bench'];
    const files = places.flatMap((place) => sourceFiles(join(root, place)));
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(join(root, 'packages/cli/bin/kodo.cjs'));
    // Spelled in two pieces so that this file does not name it.
    const pattern = new RegExp(['Module', '\\._[A-Za-z]'].join(''));
    const offenders = files.filter((file) => pattern.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
  });
});
