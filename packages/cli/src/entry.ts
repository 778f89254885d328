// The first file of `kodo` (built as dist/kodo.cjs; bin/kodo.cjs requires it). It only compiles
// the entry proper, dist/main.cjs (main.ts), with V8's code cache, and runs it. main.ts installs
// the loader that does the same for every other chunk (code-cache.ts), but it cannot load
// itself that way: compiled from source, its ~16 KB cost ~5 M instructions on every run
// (callgrind; ~2.5 % of `kodo -p`), `--version` included. This file is small enough that
// compiling it is cheap, and imports nothing but Node's built-ins and the cache file format.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { codeCacheDir, fnv1a, readCache, WRAPPER_END, WRAPPER_START } from './code-cache-file';

/** Set by scripts/build.mjs: a hash of dist/main.cjs, which names the caches made from it. */
declare const __KODO_ENTRY_ID__: string;

interface EntryModule {
  exports: unknown;
  filename: string;
  paths: string[];
  require(id: string): unknown;
}
interface ModuleClass {
  new (id: string, parent: unknown): EntryModule;
  _nodeModulePaths(directory: string): string[];
}

const mainFile = join(__dirname, 'main.cjs');
const source = readFileSync(mainFile, 'utf8');
const useCache = process.env.KODO_CODE_CACHE !== 'off';
const cacheFile = join(codeCacheDir(join(__dirname, 'code-cache')), 'main.cjs.v8');
const stamp = { size: source.length, build: fnv1a(__KODO_ENTRY_ID__) };
const cachedData = useCache ? readCache(cacheFile, stamp) : undefined;
const script = new Script(`${WRAPPER_START}${source}${WRAPPER_END}`, {
  filename: mainFile,
  ...(cachedData ? { cachedData } : {}),
});
if (useCache) {
  // main.ts hands this to installCodeCache, which writes the cache when it is due.
  Object.assign(globalThis, {
    __kodoEntryScript: {
      script,
      cacheFile,
      stamp,
      fromCache: cachedData !== undefined && !script.cachedDataRejected,
      rejected: cachedData !== undefined && script.cachedDataRejected === true,
    },
  });
}
// `import()` works only in code Node's own loader compiled (Node 20 gives a vm.Script none, with
// or without a cache), so the ES module chunks (Ink's) are imported through this file.
Object.assign(globalThis, { __kodoImportEsm: (fileUrl: string) => import(fileUrl) });
const Module = module.constructor as unknown as ModuleClass;
const main = new Module(mainFile, module);
main.filename = mainFile;
main.paths = Module._nodeModulePaths(__dirname);
const moduleFunction = script.runInThisContext() as (...args: unknown[]) => void;
moduleFunction.call(main.exports, main.exports, (id: string) => main.require(id), main, mainFile, __dirname);
