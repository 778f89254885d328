// Builds the `kodo` CLI as one ESM bundle (code-split so that interactive UI, providers and other
// heavy parts load only when a run needs them) and the @kodo/core SDK bundle.
import { chmod, cp, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliDist = join(root, 'packages/cli/dist');
const coreDist = join(root, 'packages/core/dist');

// esbuild emits ESM for node; packages that still call require() need it defined.
const banner = {
  js: "import { createRequire as __kodoCreateRequire } from 'node:module'; const require = __kodoCreateRequire(import.meta.url);",
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  conditions: ['source'],
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  banner,
};

await rm(cliDist, { recursive: true, force: true });
await rm(coreDist, { recursive: true, force: true });
await mkdir(cliDist, { recursive: true });

await build({
  ...common,
  entryPoints: { kodo: join(root, 'packages/cli/src/main.ts') },
  outdir: cliDist,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: `#!/usr/bin/env node\n${banner.js}` },
});
await chmod(join(cliDist, 'kodo.mjs'), 0o755);
// The demo's sample project and scripted session ship beside the bundle.
await cp(join(root, 'packages/cli/src/demo/assets'), join(cliDist, 'demo'), { recursive: true }).catch(
  (error) => {
    if (error.code !== 'ENOENT') throw error;
  },
);

await build({
  ...common,
  entryPoints: { index: join(root, 'packages/core/src/index.ts') },
  outdir: coreDist,
  packages: 'external',
});
