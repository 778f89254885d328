// Re-records the foreign session fixtures (packages/testkit/fixtures/foreign-sessions/) with the
// real Gemini CLI, Claude Code and Codex against the testkit's mock servers. Not part of `npm test`
// and never run in CI: it needs the three CLIs installed from npm outside the repository.
// Usage and what it scrubs: packages/testkit/fixtures/foreign-sessions/README.md.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const outDir = join(root, '.kodo-bench');
await mkdir(outDir, { recursive: true });
const outfile = join(outDir, 'record-foreign-sessions.mjs');
await build({
  entryPoints: [join(here, 'record.ts')],
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
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main(process.argv.slice(2), root);
