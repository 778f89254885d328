// Runs the benchmarks: each `bench/*.bench.ts` is bundled with esbuild (so it can use the
// testkit's TypeScript mock servers) and executed in turn; each prints its own table.
// Usage: npm run bench [-- name-filter]
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importBundled } from '../scripts/bundle-ts.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const filter = process.argv[2];

// The testkit finds the built CLI relative to its own source file; bundled, it needs telling.
process.env.KODO_CLI_DIR = join(root, 'packages/cli');
const benches = (await readdir(here)).filter(
  (name) => name.endsWith('.bench.ts') && (!filter || name.includes(filter)),
);
for (const name of benches.sort()) {
  console.log(`\n## ${name.replace(/\.bench\.ts$/, '')}\n`);
  await importBundled(join(here, name), name.replace(/\.ts$/, ''));
}
