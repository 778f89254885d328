// The build step that turns esbuild's code-split ES modules into CommonJS (scripts/chunks-to-cjs.mjs),
// on a small bundle with the same shapes as kodo's: a chunk shared by several others, a chunk that
// must stay an ES module (top-level await, like Ink's), lazy chunks, a built-in imported lazily,
// tree-sitter's Emscripten output (which declares its own `require`), and import.meta.url.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'scripts',
  'chunks-to-cjs.mjs',
);

interface Converter {
  convertChunksToCjs(options: {
    outDir: string;
    metafile: unknown;
  }): Promise<{ converted: string[]; keptEsm: string[] }>;
}

const require = createRequire(import.meta.url);
const treeSitterWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
const repoModules = join(dirname(script), '..', 'node_modules');

const SOURCES = {
  'src/entry.js': `import { shared } from './shared.js';
export async function run() {
  const ui = await import('./ui.js');
  const lazy = await import('./lazy.js');
  return {
    sameInstance: ui.seesShared(shared),
    uiReady: ui.ready,
    lazy: lazy.value,
    sep: await lazy.builtin(),
    treeSitter: await lazy.treeSitter(),
    metaUrl: lazy.metaUrl,
  };
}
`,
  'src/shared.js': 'export const shared = { made: Math.random() };\n',
  'src/ui.js': `import { shared } from './shared.js';
export const ready = await Promise.resolve('ready');
export const seesShared = (other) => other === shared;
`,
  'src/lazy.js': `import { shared } from './shared.js';
export const value = shared ? 'lazy' : 'broken';
export async function builtin() {
  const { sep } = await import('node:path');
  return sep;
}
// Emscripten's output (tree-sitter's parser) declares its own \`require\` around a lazy import.
export async function treeSitter() {
  const { Parser } = await import('web-tree-sitter');
  await Parser.init({ locateFile: () => ${JSON.stringify(treeSitterWasm)} });
  return typeof Parser;
}
export const metaUrl = import.meta.url;
`,
};

let workspace: TempWorkspace | undefined;
afterEach(() => workspace?.cleanup());

async function bundleAndConvert() {
  workspace = createTempWorkspace(SOURCES);
  const outDir = join(workspace.root, 'out');
  const { metafile } = await build({
    entryPoints: { entry: join(workspace.root, 'src', 'entry.js') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    minify: true,
    sourcemap: 'linked',
    nodePaths: [repoModules],
    logLevel: 'silent',
  });
  const { convertChunksToCjs } = (await import(pathToFileURL(script).href)) as Converter;
  const result = await convertChunksToCjs({ outDir, metafile });
  return { outDir, result };
}

describe('chunks-to-cjs', () => {
  it('converts every chunk without top-level await and keeps the others as ES modules', async () => {
    const { outDir, result } = await bundleAndConvert();
    expect(existsSync(join(outDir, 'entry.cjs'))).toBe(true);
    expect(existsSync(join(outDir, 'entry.mjs'))).toBe(false);
    expect(result.keptEsm).toHaveLength(1);
    expect(result.keptEsm[0]).toMatch(/^ui-.*\.mjs$/);
    const files = readdirSync(join(outDir, 'chunks'));
    expect(files.filter((file) => file.endsWith('.mjs'))).toEqual(result.keptEsm);
    expect(files.some((file) => /^lazy-.*\.cjs$/.test(file))).toBe(true);
    // The ES module chunk takes the CommonJS chunks through require, not import: Node's loader
    // would read and lex each one (and what it re-exports) to learn its export names.
    const esm = readFileSync(join(outDir, 'chunks', result.keptEsm[0]!), 'utf8');
    expect(esm).not.toMatch(/import\s*\{[^}]*\}\s*from\s*"\.\/[^"]+\.cjs"/);
    expect(esm).toContain('__kodoRequireChunk(import.meta.url,');
    // Source maps follow the converted files.
    expect(files.filter((file) => file.endsWith('.cjs.map'))).toHaveLength(
      files.filter((file) => file.endsWith('.cjs')).length,
    );
  });

  it('runs: one instance of each module across CommonJS and ES module chunks, lazy built-ins, import.meta.url', async () => {
    const { outDir } = await bundleAndConvert();
    const output = execFileSync(
      process.execPath,
      [
        '-e',
        `const { dirname, join } = require('node:path');
const { fileURLToPath } = require('node:url');
globalThis.__kodoImportEsm = (url) => import(url);
globalThis.__kodoRequireChunk = (from, specifier) => require(join(dirname(fileURLToPath(from)), specifier));
require(${JSON.stringify(join(outDir, 'entry.cjs'))}).run().then((result) => process.stdout.write(JSON.stringify(result)));`,
      ],
      { encoding: 'utf8' },
    );
    const result = JSON.parse(output);
    expect(result).toMatchObject({
      sameInstance: true,
      uiReady: 'ready',
      lazy: 'lazy',
      sep: '/',
      treeSitter: 'function',
    });
    expect(result.metaUrl).toMatch(/^file:\/\/.*\/out\/chunks\/lazy-.*\.cjs$/);
  });
});
