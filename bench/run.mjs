// Runs the benchmarks: each `bench/*.bench.ts` is bundled with esbuild (so it can use the
// testkit's TypeScript mock servers) and executed in turn; each prints its own table.
// Usage: npm run bench [-- name-filter]
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outDir = join(root, '.kodo-bench');
const filter = process.argv[2];

await mkdir(outDir, { recursive: true });
// The testkit finds the built CLI relative to its own source file; bundled, it needs telling.
process.env.KODO_CLI_DIR = join(root, 'packages/cli');
const benches = (await readdir(here)).filter(
  (name) => name.endsWith('.bench.ts') && (!filter || name.includes(filter)),
);
for (const name of benches.sort()) {
  const outfile = join(outDir, name.replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [join(here, name)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    conditions: ['source'],
    packages: 'external',
    logLevel: 'warning',
    alias: { '@kodo/testkit': join(root, 'packages/testkit/src/index.ts') },
  });
  console.log(`\n## ${name.replace(/\.bench\.ts$/, '')}\n`);
  await import(pathToFileURL(outfile).href);
}
