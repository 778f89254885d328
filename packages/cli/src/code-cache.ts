// V8 code cache for kodo's own CommonJS chunks (dist/**/*.cjs).
//
// Compiling the ~200 KB of JavaScript on the headless path, and then compiling each function the
// first time it runs, is most of what kodo adds to Node's own start-up. V8 can serialise compiled
// code and take it back (`vm.Script` `cachedData`); Node 22 does this for every module with
// `module.enableCompileCache()`, Node 20 has only the `vm` primitive, so kodo loads its chunks
// through this small loader. The cache is written after a run (by the build, and again by any run
// that finds it missing or rejected, e.g. after a Node upgrade) and holds bytecode only: no data.
//
// V8 checks a cache against its own version and flags, but of the source only its length, so a
// cache also records the size of the file it was made from and which build that file came from
// (the build id, or the file's mtime when running without one), so a rebuilt chunk never meets a
// stale cache, and a checksum (V8 does not check one, and damaged bytecode crashes Node). Not the
// mtime when there is a build id: npm resets every installed file's mtime to one fixed date.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';
import {
  codeCacheDir,
  fnv1a,
  readCache,
  type SourceStamp,
  WRAPPER_END,
  WRAPPER_START,
  writeCache,
} from './code-cache-file';

export { codeCacheDir };

/** The few parts of Node's CommonJS `Module` this loader uses. */
interface NodeModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
  require(id: string): unknown;
}
interface ModuleClass {
  new (id: string, parent: NodeModule): NodeModule;
  _nodeModulePaths(directory: string): string[];
  _extensions: Record<string, (module: NodeModule, filename: string) => void>;
  _resolveFilename(request: string, parent: NodeModule): string;
  _cache: Record<string, unknown>;
}

export interface CodeCacheOptions {
  /** Chunks under this directory are compiled with the cache; anything else loads as usual. */
  distDir: string;
  /** Where the cache files live (one per chunk). */
  cacheDir: string;
  /** CommonJS's `Module` class (`module.constructor` in the entry). */
  moduleClass: unknown;
  /** The build the files under distDir come from; without one, caches go by the files' mtimes. */
  buildId?: string;
  /**
   * Rewrite every script's cache at exit (or `snapshot()`), accepted ones too: the build's
   * warm-up runs kodo more than once, each over other paths, and each run's cache then holds
   * what the earlier ones compiled plus its own.
   */
  rewriteAll?: boolean;
  /**
   * A pack of the chunks every run needs (scripts/hot-pack.mjs), relative to `distDir`: compiled
   * as one script, it serves those chunks without a file read and compile each. Used only when
   * it carries `buildId`, so never without one.
   */
  packFile?: string;
  /** The entry's own script, compiled by entry.ts before this loader was installed. */
  entry?: EntryScript;
}

/**
 * dist/main.cjs as entry.ts compiled it: its cache is written with the chunks' caches, under the
 * same rules (when it was missing or refused, every one in the warm-up, none after a flag change).
 */
export interface EntryScript {
  script: Script;
  cacheFile: string;
  stamp: SourceStamp;
  /** Whether a cache was given to V8 and accepted. */
  fromCache: boolean;
  /** Whether a cache was given to V8 and refused. */
  rejected: boolean;
}

/** What the loader did so far (tests and `KODO_CODE_CACHE=report`). */
export interface CodeCacheStats {
  /** Scripts compiled by the loader (chunk files and the pack). */
  compiled: number;
  /** Of those, compiled from an accepted cache. */
  fromCache: number;
  /** Caches V8 refused (another Node version or V8 flags); they are rewritten at exit. */
  rejected: number;
  /** Chunks served from the pack. */
  packed: number;
}

type ModuleFunction = (...args: unknown[]) => void;
interface PackedChunk {
  size: number;
  load: ModuleFunction;
}

export interface CodeCacheHandle {
  stats(): CodeCacheStats;
  /**
   * V8's flags were changed at run time (`v8.setFlagsFromString`): caches no longer fit what V8
   * expects, and a cache made now would not fit the next run. From here on scripts compile
   * without caches, and none is written at exit.
   */
  flagsChanged(): void;
  /**
   * Makes the caches of the scripts compiled so far now, from the functions compiled so far
   * (they are written at exit). Used by the build's warm-up at the first model request: code
   * that runs after it compiles while kodo waits for the model anyway, and a smaller cache
   * deserialises faster on the way to that request.
   */
  snapshot(): void;
}

/**
 * Installs the loader for `.cjs` files under `distDir`. The chunks it compiles cannot use
 * `import()` (Node 20 loses the dynamic-import callback of code taken from a cache); the build
 * makes sure they don't (scripts/chunks-to-cjs.mjs).
 */
export function installCodeCache(options: CodeCacheOptions): CodeCacheHandle | undefined {
  const Module = options.moduleClass as ModuleClass;
  const fallback = Module._extensions['.cjs'] ?? Module._extensions['.js'];
  if (!fallback) return undefined;
  const stats: CodeCacheStats = { compiled: 0, fromCache: 0, rejected: 0, packed: 0 };
  const prefix = options.distDir.endsWith(sep) ? options.distDir : `${options.distDir}${sep}`;
  const stale: { script: Script; cacheFile: string; stamp: SourceStamp; data?: Buffer }[] = [];
  let flagsChanged = false;
  const relativeName = (filename: string) => filename.slice(prefix.length).split(sep).join('/');
  const buildStamp = options.buildId === undefined ? undefined : fnv1a(options.buildId);
  if (options.entry) {
    const { script, cacheFile, stamp, fromCache, rejected } = options.entry;
    stats.compiled += 1;
    if (fromCache) stats.fromCache += 1;
    if (rejected) stats.rejected += 1;
    if (options.rewriteAll || !fromCache) stale.push({ script, cacheFile, stamp });
  }

  /** The module function of a file under distDir, compiled with its cache when one fits. */
  const compile = (filename: string): ModuleFunction | undefined => {
    let source: string;
    try {
      source = readFileSync(filename, 'utf8');
    } catch {
      return undefined;
    }
    const stamp = flagsChanged ? undefined : sourceStamp(filename, buildStamp);
    const cacheFile = join(options.cacheDir, `${relativeName(filename).split('/').join('__')}.v8`);
    const cachedData = stamp ? readCache(cacheFile, stamp) : undefined;
    const script = new Script(`${WRAPPER_START}${source}${WRAPPER_END}`, {
      filename,
      ...(cachedData ? { cachedData } : {}),
    });
    stats.compiled += 1;
    if (cachedData && script.cachedDataRejected) stats.rejected += 1;
    else if (cachedData) stats.fromCache += 1;
    if (stamp && (options.rewriteAll || !cachedData || script.cachedDataRejected))
      stale.push({ script, cacheFile, stamp });
    return script.runInThisContext() as ModuleFunction;
  };

  const pack =
    options.packFile && options.buildId !== undefined
      ? loadPack(join(options.distDir, options.packFile), options.buildId, compile)
      : undefined;

  /** The pack's function for a chunk, if the pack has it and the chunk file is the one packed. */
  const packedLoad = (filename: string): ModuleFunction | undefined => {
    const packed = pack?.get(relativeName(filename));
    if (!packed) return undefined;
    if (sourceStamp(filename, buildStamp)?.size !== packed.size) return undefined;
    stats.packed += 1;
    return packed.load;
  };

  const run = (load: ModuleFunction, module: NodeModule, filename: string) =>
    load.call(module.exports, module.exports, requireFor(module), module, filename, dirname(filename));

  /**
   * `require` as a chunk sees it: Node's, except that a sibling chunk (`./chunk-X.cjs`,
   * `./chunks/…`) is instantiated directly, from the pack or compiled with its cache. Its path is
   * known, so Node's resolver (which looks for a package.json above the requiring file on every
   * call) has nothing to find.
   */
  // Every chunk lives in one or two folders: their node_modules lookup lists are computed once.
  const lookupPaths = new Map<string, string[]>();
  const nodeModulePaths = (directory: string) => {
    let paths = lookupPaths.get(directory);
    if (!paths) {
      paths = Module._nodeModulePaths(directory);
      lookupPaths.set(directory, paths);
    }
    return paths;
  };
  const requireFor = (module: NodeModule): NodeJS.Require => {
    const directory = dirname(module.filename);
    const require = ((id: string) => {
      if (!(id.startsWith('./') && id.endsWith('.cjs'))) return module.require(id);
      const filename = join(directory, id);
      const cached = Module._cache[filename] as NodeModule | undefined;
      if (cached) return cached.exports;
      // Packed or not: Node's resolver and Module._load cost ~0.3 ms a chunk. A file that is
      // not there goes to Node, which throws its usual error.
      const load = filename.startsWith(prefix) ? (packedLoad(filename) ?? compile(filename)) : undefined;
      if (!load) return module.require(id);
      // What Module._load does for a file: cache first (cycles see partial exports), then run.
      const child = new Module(filename, module);
      child.filename = filename;
      child.paths = nodeModulePaths(directory);
      Module._cache[filename] = child;
      try {
        run(load, child, filename);
      } catch (error) {
        delete Module._cache[filename];
        throw error;
      }
      child.loaded = true;
      return child.exports;
    }) as NodeJS.Require;
    require.resolve = ((request: string) =>
      Module._resolveFilename(request, module)) as NodeJS.RequireResolve;
    require.cache = Module._cache as NodeJS.Require['cache'];
    return require;
  };

  Module._extensions['.cjs'] = (module, filename) => {
    if (!filename.startsWith(prefix)) return fallback(module, filename);
    const load = packedLoad(filename) ?? compile(filename);
    if (!load) return fallback(module, filename);
    run(load, module, filename);
  };

  // After the run the scripts hold every function it compiled: the best cache for the next one.
  process.once('exit', () => {
    if (flagsChanged) return;
    for (const { script, cacheFile, stamp, data } of stale) {
      writeCache(cacheFile, stamp, data ?? script.createCachedData());
    }
  });
  return {
    stats: () => ({ ...stats }),
    snapshot: () => {
      for (const entry of stale) entry.data ??= entry.script.createCachedData();
    },
    flagsChanged: () => {
      flagsChanged = true;
    },
  };
}

/** The pack's chunks by path relative to distDir; none when it is missing, malformed or from another build. */
function loadPack(
  file: string,
  buildId: string,
  compile: (filename: string) => ModuleFunction | undefined,
): Map<string, PackedChunk> | undefined {
  const moduleFunction = compile(file);
  if (!moduleFunction) return undefined;
  const holder: { exports: unknown } = { exports: {} };
  try {
    moduleFunction.call(holder.exports, holder.exports, undefined, holder, file, dirname(file));
  } catch {
    return undefined;
  }
  const pack = holder.exports as { buildId?: unknown; chunks?: Record<string, PackedChunk> };
  if (pack.buildId !== buildId || typeof pack.chunks !== 'object' || pack.chunks === null) return undefined;
  return new Map(Object.entries(pack.chunks).filter(([, chunk]) => typeof chunk?.load === 'function'));
}

function sourceStamp(filename: string, buildStamp: number | undefined): SourceStamp | undefined {
  try {
    const stats = statSync(filename);
    return { size: stats.size, build: buildStamp ?? stats.mtimeMs };
  } catch {
    return undefined;
  }
}
