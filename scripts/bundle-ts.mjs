// Runs a TypeScript entry outside vitest: bundles it with esbuild into .kodo-bench/ (the testkit,
// whose package exports its TypeScript sources, resolved from source) and imports it. Used by the
// benchmarks (bench/run.mjs) and by dev scripts such as scripts/foreign-sessions/record.mjs.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(repoRoot, '.kodo-bench');

/** Bundles `entry` to `.kodo-bench/<name>.mjs` and returns the imported module. */
export async function importBundled(entry, name) {
  await mkdir(outDir, { recursive: true });
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    conditions: ['source'],
    packages: 'external',
    logLevel: 'warning',
    alias: { '@kodo/testkit': join(repoRoot, 'packages/testkit/src/index.ts') },
  });
  return import(pathToFileURL(outfile).href);
}
