// Builds the `kodo` CLI as one ESM bundle (code-split so that interactive UI, providers and other
// heavy parts load only when a run needs them) and the @kodo/core SDK bundle.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chmod, cp, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { builtinsByRequire } from './builtins-by-require.mjs';
import { chunksInImportCycles, markEagerChunks } from './eager-compile.mjs';
import { firstRequestChunk } from './first-request-chunk.mjs';
import { generateSettingsShape } from './gen-settings-shape.mjs';
import { generateToolSpecs } from './gen-tool-specs.mjs';
import { copyRuntimeAssets } from './package-assets.mjs';
import { profileStartup } from './startup-profile.mjs';
import { writeBundledLicences } from './third-party-licenses.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliDist = join(root, 'packages/cli/dist');
const coreDist = join(root, 'packages/core/dist');

// esbuild emits ESM for node; bundled CommonJS dependencies still call require() for Node's
// built-in modules (everything else is in the bundle). `process.getBuiltinModule` answers that
// without loading `node:module`, which costs startup time (it pulls in the source-map support);
// every Node kodo runs on has it (main.ts checks before loading the bundle). No top-level
// `await` in the banner: a module with one cannot be loaded by `require`, which main.ts uses on
// Node 20. Unknown ids throw like require() does, so optional dependencies
// (`try { require('bufferutil') } catch {}`) behave as usual.
function builtinOnlyRequire() {
  const notFound = (id) =>
    Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
  const require = (id) => {
    const module = process.getBuiltinModule(id);
    if (module === undefined) throw notFound(id);
    return module;
  };
  require.resolve = (id) => {
    throw notFound(id);
  };
  return require;
}
const banner = {
  js: `const require = (${builtinOnlyRequire.toString()})();`,
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  conditions: ['source'],
  sourcemap: 'linked',
  legalComments: 'none',
  // KODO_NO_MINIFY=1 keeps names readable, for CPU profiles of the built kodo.
  minify: process.env.KODO_NO_MINIFY !== '1',
  logLevel: 'warning',
  banner,
};

const { version } = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8'));

/**
 * A hash of what the bundle is built from (the packages' sources and the locked dependencies),
 * the build's one id. The cache of parsed files is keyed by it: another build may parse the same
 * file differently.
 */
function sourceId() {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(root, 'package-lock.json')));
  for (const dir of ['packages/core/src', 'packages/cli/src']) {
    const files = readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
      .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
      .sort();
    for (const file of files) hash.update(`${file.slice(root.length)}\0`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

await generateToolSpecs();
await generateSettingsShape();
await rm(cliDist, { recursive: true, force: true });
await rm(coreDist, { recursive: true, force: true });
await mkdir(cliDist, { recursive: true });

// The bundle: everything after the entry's fast paths, split per mode and provider (the split
// points are the dynamic imports listed in packages/cli/src/on-demand.ts and core's on-demand.ts).
const cliBuild = await build({
  ...common,
  // Which module went into which chunk: the bundled packages' licences come from it.
  metafile: true,
  entryPoints: { cli: join(root, 'packages/cli/src/run.ts') },
  outdir: cliDist,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  // React and the reconciler pick their development builds at run time unless told otherwise:
  // those are slower and record a performance measure per component render that is never
  // cleared (thousands while one answer streams).
  define: {
    __KODO_VERSION__: JSON.stringify(version),
    __KODO_SOURCE_ID__: JSON.stringify(sourceId()),
    'process.env.NODE_ENV': '"production"',
  },
  chunkNames: 'chunks/[name]-[hash]',
  // Ink imports React DevTools only when DEV=true; kodo does not ship it. node-pty loads its
  // native binary (a per-platform package) relative to itself, so it stays in node_modules.
  external: ['react-devtools-core', '@lydell/node-pty'],
  // The first request's modules in one chunk (first-request-chunk.mjs). Its imports of core's
  // files are bare (core declares no side effects); esbuild still follows them for chunking.
  plugins: [builtinsByRequire(), firstRequestChunk(root)],
  logOverride: { 'ignored-bare-import': 'silent' },
  absWorkingDir: root,
});
// The entry: CommonJS for a fast start (main.ts); its `require('./run')` or `import('./run')`
// loads the bundle above.
await build({
  ...common,
  format: 'cjs',
  // Not the bundle's banner: a CommonJS file has Node's own `require`.
  banner: { js: '#!/usr/bin/env node' },
  entryPoints: { kodo: join(root, 'packages/cli/src/main.ts') },
  outdir: cliDist,
  outExtension: { '.js': '.cjs' },
  define: { __KODO_VERSION__: JSON.stringify(version) },
  plugins: [
    {
      name: 'entry-imports-bundle',
      setup(pluginBuild) {
        pluginBuild.onResolve({ filter: /^\.\/run$/ }, () => ({ path: './cli.mjs', external: true }));
      },
    },
  ],
});
await chmod(join(cliDist, 'kodo.cjs'), 0o755);
// KODO_METAFILE=<file>: esbuild's account of the bundle (which module went into which chunk, and
// its bytes), for start-up work (docs/performance.md).
if (process.env.KODO_METAFILE) writeFileSync(process.env.KODO_METAFILE, JSON.stringify(cliBuild.metafile));
// The demo's sample project and scripted session ship beside the bundle.
await cp(join(root, 'packages/cli/src/demo/assets'), join(cliDist, 'demo'), { recursive: true }).catch(
  (error) => {
    if (error.code !== 'ENOENT') throw error;
  },
);

await build({
  ...common,
  entryPoints: {
    index: join(root, 'packages/core/src/index.ts'),
    engine: join(root, 'packages/core/src/engine.ts'),
  },
  outdir: coreDist,
  // The SDK's dependencies stay in node_modules, but jsonc-parser: its ES build imports files
  // without their extensions, which Node's own ESM loader cannot resolve (the settings preset
  // reads settings files with it), so it is bundled.
  external: Object.keys(
    JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')).dependencies,
  ).filter((name) => name !== 'jsonc-parser'),
});
// What the CLI loads by path at run time (the shell parser's WebAssembly) ships inside its package.
await copyRuntimeAssets(cliDist);
// The functions that run before the first request compile with their chunks (eager-compile.mjs):
// found by running the built kodo (startup-profile.mjs). KODO_EAGER_COMPILE=off leaves the chunks
// as esbuild wrote them (to measure against, or to build a kodo that cannot start).
if (process.env.KODO_EAGER_COMPILE !== 'off') {
  const called = await profileStartup(cliDist);
  const marked = markEagerChunks(called, { inCycle: chunksInImportCycles(cliBuild.metafile, root) });
  if (process.env.KODO_EAGER_COMPILE === 'verbose') console.log('eager compile:', marked);
}
// Both bundles carry models.dev's data (the model catalogue): its licence ships beside them.
for (const dist of [cliDist, coreDist]) {
  await cp(join(root, 'THIRD_PARTY_NOTICES.md'), join(dist, 'THIRD_PARTY_NOTICES.md'));
}
// …and the licence of every package the CLI bundle inlines or copies (the build fails for one
// without a licence text). The core bundle keeps its packages external: nothing to add there.
await writeBundledLicences({
  dist: cliDist,
  metafiles: [cliBuild.metafile],
  extraPackageDirs: ['node_modules/web-tree-sitter', 'node_modules/tree-sitter-bash'],
  workingDir: root,
});
