// The V8 code cache loader (src/code-cache.ts), run in child processes the way the entry runs it:
// the cache is written when a process exits and used by the next; a changed chunk never runs
// stale code; a damaged or unwritable cache costs only speed.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace } from '@kodo/testkit';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const source = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'code-cache.ts');

let root: string;
let cleanup: () => void;
const dist = () => join(root, 'dist');
const cacheDir = () => join(root, 'dist', 'code-cache');
const chunk = () => join(root, 'dist', 'chunks', 'answer.cjs');
const cacheFile = () => join(cacheDir(), 'chunks__answer.cjs.v8');

/** Loads the chunk through the loader in a fresh process; returns what it exported and the stats. */
function load(
  buildId?: string,
  extraEnv: Record<string, string> = {},
): { value: number; stats: Record<string, number> } {
  const output = execFileSync(process.execPath, [join(root, 'main.cjs')], {
    encoding: 'utf8',
    env: { ...process.env, ...(buildId ? { BUILD_ID: buildId } : {}), ...extraEnv },
  });
  return JSON.parse(output);
}

function writeChunk(expression: string, mtime: Date): void {
  // Enough code that V8 has something to cache: a function that runs, and one that does not.
  writeFileSync(
    chunk(),
    `function compute() { let total = 0; for (let i = 0; i < 10; i += 1) total += i; return total - 45 + ${expression}; }
function unused() { return 'never called'; }
module.exports = { value: compute(), unused };\n`,
  );
  utimesSync(chunk(), mtime, mtime);
}

beforeAll(async () => {
  const workspace = createTempWorkspace({});
  root = workspace.root;
  cleanup = workspace.cleanup;
  mkdirSync(join(dist(), 'chunks'), { recursive: true });
  await build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: join(root, 'loader.cjs'),
    logLevel: 'silent',
  });
  writeFileSync(
    join(root, 'main.cjs'),
    `const { installCodeCache } = require('./loader.cjs');
const buildId = process.env.BUILD_ID;
const cache = installCodeCache({ distDir: ${JSON.stringify(dist())}, cacheDir: ${JSON.stringify(cacheDir())}, moduleClass: module.constructor, ...(buildId ? { buildId } : {}), ...(process.env.REWRITE_ALL ? { rewriteAll: true } : {}) });
if (process.env.FLAGS_CHANGED) cache.flagsChanged();
const { value, unused } = require('./dist/chunks/answer.cjs');
if (process.env.CALL_UNUSED) unused();
process.stdout.write(JSON.stringify({ value, stats: cache.stats() }));\n`,
  );
});

afterAll(() => {
  chmodSync(cacheDir(), 0o755);
  cleanup();
});

describe('code cache', () => {
  it('writes the cache when a run exits and compiles the next run from it', () => {
    writeChunk('42', new Date(2026, 0, 1));
    expect(existsSync(cacheFile())).toBe(false);
    expect(load()).toEqual({ value: 42, stats: { compiled: 1, fromCache: 0, rejected: 0, packed: 0 } });
    expect(existsSync(cacheFile())).toBe(true);
    expect(load()).toEqual({ value: 42, stats: { compiled: 1, fromCache: 1, rejected: 0, packed: 0 } });
  });

  it('never runs a stale cache: a rebuilt chunk of the same length is compiled from its source', () => {
    // Same length as before: V8 itself would accept the old cache for this source.
    writeChunk('43', new Date(2026, 0, 2));
    expect(load()).toEqual({ value: 43, stats: { compiled: 1, fromCache: 0, rejected: 0, packed: 0 } });
    expect(load()).toEqual({ value: 43, stats: { compiled: 1, fromCache: 1, rejected: 0, packed: 0 } });
  });

  it('never hands V8 a damaged cache (it would crash): the chunk compiles from source, a good cache is written', () => {
    const good = readFileSync(cacheFile());
    // What storage does to files: a block of garbage, or zeros where data was.
    for (const damage of [
      (bytes: Buffer) => bytes.fill(0x5a, 600, 900),
      (bytes: Buffer) => bytes.fill(0, 24),
    ]) {
      const bytes = Buffer.from(good);
      damage(bytes);
      writeFileSync(cacheFile(), bytes);
      expect(load()).toEqual({ value: 43, stats: { compiled: 1, fromCache: 0, rejected: 0, packed: 0 } });
      expect(load()).toEqual({ value: 43, stats: { compiled: 1, fromCache: 1, rejected: 0, packed: 0 } });
    }
  });

  it('keeps working when the cache cannot be written (a read-only install)', () => {
    if (process.getuid?.() === 0) return; // root writes anyway; the write is best effort either way
    rmSync(cacheDir(), { recursive: true, force: true });
    mkdirSync(cacheDir());
    chmodSync(cacheDir(), 0o555);
    writeChunk('44', new Date(2026, 0, 3));
    expect(load()).toEqual({ value: 44, stats: { compiled: 1, fromCache: 0, rejected: 0, packed: 0 } });
    expect(existsSync(cacheFile())).toBe(false);
  });

  it('with a build id, goes by the build and not the mtime (npm resets mtimes on install)', () => {
    writeChunk('50', new Date(2026, 0, 5));
    expect(load('build-a')).toEqual({
      value: 50,
      stats: { compiled: 1, fromCache: 0, rejected: 0, packed: 0 },
    });
    expect(load('build-a').stats.fromCache).toBe(1);
    const installed = new Date(1985, 9, 26);
    utimesSync(chunk(), installed, installed);
    expect(load('build-a').stats.fromCache).toBe(1);
    // Same length, another build: compiled from the source, never from the old cache.
    writeChunk('51', installed);
    expect(load('build-b')).toEqual({
      value: 51,
      stats: { compiled: 1, fromCache: 0, rejected: 0, packed: 0 },
    });
  });

  it('with rewriteAll (the build warm-up), rewrites an accepted cache with what this run compiled too', () => {
    writeChunk('70', new Date(2026, 0, 7));
    rmSync(cacheFile(), { force: true });
    load();
    const first = readFileSync(cacheFile());
    // An accepted cache is left alone by an ordinary run, even one that compiles more.
    expect(load(undefined, { CALL_UNUSED: '1' }).stats.fromCache).toBe(1);
    expect(readFileSync(cacheFile()).equals(first)).toBe(true);
    // The warm-up's second run keeps the first run's functions and adds the one it called.
    expect(load(undefined, { CALL_UNUSED: '1', REWRITE_ALL: '1' }).stats.fromCache).toBe(1);
    const rewritten = readFileSync(cacheFile());
    expect(rewritten.length).toBeGreaterThan(first.length);
    expect(load()).toEqual({ value: 70, stats: { compiled: 1, fromCache: 1, rejected: 0, packed: 0 } });
  });

  it('after flagsChanged (the UI sets a V8 flag) compiles without caches and writes none', () => {
    writeChunk('60', new Date(2026, 0, 6));
    rmSync(cacheFile(), { force: true });
    expect(load(undefined, { FLAGS_CHANGED: '1' })).toEqual({
      value: 60,
      stats: { compiled: 1, fromCache: 0, rejected: 0, packed: 0 },
    });
    expect(existsSync(cacheFile())).toBe(false);
    load();
    expect(existsSync(cacheFile())).toBe(true);
    expect(load(undefined, { FLAGS_CHANGED: '1' }).stats.fromCache).toBe(0);
  });

  it('keeps one cache per Node version and V8 flags, so runs with other flags do not overwrite it', () => {
    const dirFor = (nodeArgs: string[], env: NodeJS.ProcessEnv = {}) =>
      execFileSync(
        process.execPath,
        [
          ...nodeArgs,
          '-e',
          `process.stdout.write(require(${JSON.stringify(join(root, 'loader.cjs'))}).codeCacheDir('/base'))`,
        ],
        { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } },
      );
    const plain = dirFor([]);
    expect(plain.startsWith(`/base/${process.version}-`)).toBe(true);
    expect(dirFor([])).toBe(plain);
    expect(dirFor(['--stack-size=2000'])).not.toBe(plain);
    expect(dirFor([], { NODE_OPTIONS: '--max-old-space-size=512' })).not.toBe(plain);
  });

  it('leaves modules outside the dist directory to Node', () => {
    const outside = join(tmpdir(), `kodo-outside-${process.pid}.cjs`);
    writeFileSync(outside, 'module.exports = 7;\n');
    try {
      const output = execFileSync(
        process.execPath,
        [
          '-e',
          `const { installCodeCache } = require(${JSON.stringify(join(root, 'loader.cjs'))});
const cache = installCodeCache({ distDir: ${JSON.stringify(dist())}, cacheDir: ${JSON.stringify(cacheDir())}, moduleClass: module.constructor });
process.stdout.write(JSON.stringify({ value: require(${JSON.stringify(outside)}), stats: cache.stats() }));`,
        ],
        { encoding: 'utf8' },
      );
      expect(JSON.parse(output)).toEqual({
        value: 7,
        stats: { compiled: 0, fromCache: 0, rejected: 0, packed: 0 },
      });
    } finally {
      rmSync(outside, { force: true });
    }
  });
});

describe('code cache: the pack of start-up chunks', () => {
  let packRoot: string;
  let packCleanup: () => void;
  const chunkPath = (name: string) => join(packRoot, 'dist', 'chunks', name);
  const MTIME = new Date(2026, 1, 1);

  /** Runs main in a fresh process: requires chunk a (which requires b) and b again. */
  function run(): {
    a: string;
    b: string;
    same: boolean;
    cached: boolean;
    siblingsResolvedByNode: string[];
    stats: Record<string, number>;
  } {
    return JSON.parse(execFileSync(process.execPath, [join(packRoot, 'main.cjs')], { encoding: 'utf8' }));
  }

  /** A pack whose functions say where they came from, with the sizes of the files on disk. */
  function writePack(buildId = 'build-1'): void {
    const entry = (name: string, body: string) => {
      const { size } = statSync(chunkPath(name));
      return `${JSON.stringify(`chunks/${name}`)}: { size: ${size}, load: function (exports, require, module, __filename, __dirname) {\n${body}\n} },`;
    };
    writeFileSync(
      join(packRoot, 'dist', 'pack.cjs'),
      `"use strict";\nmodule.exports = { buildId: ${JSON.stringify(buildId)}, chunks: {\n${entry('a.cjs', "const b = require('./b.cjs'); module.exports = { from: 'a-pack', b };")}\n${entry('b.cjs', "module.exports = { from: 'b-pack' };")}\n} };\n`,
    );
  }

  beforeAll(() => {
    const workspace = createTempWorkspace({
      'dist/chunks/a.cjs': "const b = require('./b.cjs'); module.exports = { from: 'a-file', b };\n",
      'dist/chunks/b.cjs': "module.exports = { from: 'b-file' };\n",
    });
    packRoot = workspace.root;
    packCleanup = workspace.cleanup;
    for (const name of ['a.cjs', 'b.cjs']) utimesSync(chunkPath(name), MTIME, MTIME);
    writeFileSync(
      join(packRoot, 'main.cjs'),
      `const { installCodeCache } = require(${JSON.stringify(join(root, 'loader.cjs'))});
const dist = ${JSON.stringify(join(packRoot, 'dist'))};
const cache = installCodeCache({ distDir: dist, cacheDir: dist + '/code-cache', moduleClass: module.constructor, buildId: 'build-1', packFile: 'pack.cjs' });
const Module = module.constructor; const resolve = Module._resolveFilename; const resolved = [];
Module._resolveFilename = function (request, ...rest) { resolved.push(request); return resolve.call(this, request, ...rest); };
const a = require(dist + '/chunks/a.cjs');
const b = require(dist + '/chunks/b.cjs');
process.stdout.write(JSON.stringify({ a: a.from, b: b.from, same: a.b === b, cached: require.cache[dist + '/chunks/b.cjs']?.exports === b, siblingsResolvedByNode: resolved.filter((request) => request.startsWith('./')), stats: cache.stats() }));\n`,
    );
  });
  afterAll(() => packCleanup());

  it('serves packed chunks from the pack: one script compiled, one instance of each module', () => {
    writePack();
    const result = run();
    expect(result).toMatchObject({ a: 'a-pack', b: 'b-pack', same: true, cached: true });
    expect(result.stats).toEqual({ compiled: 1, fromCache: 0, rejected: 0, packed: 2 });
    // The pack has its own code cache, like any chunk.
    expect(run().stats).toEqual({ compiled: 1, fromCache: 1, rejected: 0, packed: 2 });
  });

  it('ignores a pack from another build', () => {
    // (Another build's pack: its id and content differ; dist files never change within a build.)
    writePack('build-from-before');
    const result = run();
    expect(result).toMatchObject({ a: 'a-file', b: 'b-file', same: true });
    expect(result.stats).toMatchObject({ packed: 0 });
  });

  it('does not go by mtimes (npm resets them on install), and reads a chunk whose size changed from its file', () => {
    writePack();
    const later = new Date(2027, 0, 1);
    utimesSync(chunkPath('a.cjs'), later, later);
    expect(run()).toMatchObject({ a: 'a-pack', b: 'b-pack' });
    writeFileSync(chunkPath('b.cjs'), "module.exports = { from: 'b-rebuilt' };\n");
    const result = run();
    expect(result).toMatchObject({ a: 'a-pack', b: 'b-rebuilt', same: true });
    expect(result.stats).toMatchObject({ compiled: 2, packed: 1 });
  });

  it("works without a pack: a chunk's sibling is compiled by the loader, once, into require.cache", () => {
    rmSync(join(packRoot, 'dist', 'pack.cjs'));
    const result = run();
    expect(result).toMatchObject({ a: 'a-file', b: 'b-rebuilt', same: true, cached: true });
    expect(result.siblingsResolvedByNode).toEqual([]);
    expect(result.stats).toMatchObject({ packed: 0, compiled: 2 });
  });

  it("gives a chunk that requires a missing sibling Node's own error", () => {
    writeFileSync(
      chunkPath('a.cjs'),
      "let code; try { require('./missing.cjs'); } catch (error) { code = error.code; }\nmodule.exports = { from: code, b: require('./b.cjs') };\n",
    );
    const result = run();
    expect(result).toMatchObject({ a: 'MODULE_NOT_FOUND', same: true, cached: true });
    expect(result.siblingsResolvedByNode).toEqual(['./missing.cjs']);
  });
});
