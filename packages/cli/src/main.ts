// Entry point of `kodo`. Built as a small CommonJS file (dist/main.cjs, which dist/kodo.cjs
// compiles with its code cache: see entry.ts): Node starts a CommonJS entry ~8 ms faster than an
// ES module one, so `--version` and `--help` answer at the speed of a bare `node`. Every other
// path requires the bundle (dist/cli.cjs, code-split so each mode loads only what it needs,
// CommonJS chunks compiled with V8's code cache: see code-cache.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeCacheDir, type EntryScript, installCodeCache } from './code-cache';
import { commandHelp, HELP_TEXT } from './shared/help';
import { KODO_VERSION } from './shared/version';

/** Set by scripts/build.mjs: the id of this build, also written into its hot pack. */
declare const __KODO_BUILD_ID__: string | undefined;

// A closed pipe on stdout (`kodo … | head`) is a normal end, not a crash. The handler goes on
// when stdout is first used: creating the stream (for a pipe, a socket) costs ~1 ms, and a
// headless run writes nothing before the model answers.
onFirstUse(process, 'stdout', (stdout) =>
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  }),
);

/**
 * Runs `setup` on `process.stdout` or `process.stderr` when the stream is first read. Node
 * creates them on first access through a configurable getter; this wraps that getter once and
 * then puts the stream itself in its place.
 */
function onFirstUse(
  target: NodeJS.Process,
  name: 'stdout' | 'stderr',
  setup: (stream: NodeJS.WriteStream) => void,
): void {
  const original = Object.getOwnPropertyDescriptor(target, name);
  const create = original?.get;
  if (!create || !original.configurable) {
    setup(target[name]);
    return;
  }
  Object.defineProperty(target, name, {
    configurable: true,
    enumerable: original.enumerable ?? true,
    get() {
      const stream = create.call(target) as NodeJS.WriteStream;
      Object.defineProperty(target, name, {
        configurable: true,
        enumerable: original.enumerable ?? true,
        get: () => stream,
      });
      setup(stream);
      return stream;
    },
  });
}

async function main(argv: string[]): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`${KODO_VERSION}\n`);
    return;
  }
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    process.stdout.write(HELP_TEXT);
    return;
  }
  const usage = commandHelp(argv);
  if (usage !== undefined) {
    process.stdout.write(usage);
    return;
  }
  // The bundle's CommonJS chunks and the chunks that must stay ES modules (Ink's) reach each other
  // through these (see scripts/chunks-to-cjs.mjs); `__kodoImportEsm` is entry.ts's.
  Object.assign(globalThis, {
    __kodoRequireChunk: (importerUrl: string, specifier: string) =>
      require(join(dirname(fileURLToPath(importerUrl)), specifier)),
  });
  // KODO_CODE_CACHE: `off` compiles from source as Node does; `report` tells on exit what was used;
  // `warm-up` is the build's (see below).
  const cacheMode = process.env.KODO_CODE_CACHE;
  if (typeof __dirname === 'string' && cacheMode !== 'off') {
    // Left by entry.ts, which compiled this file.
    const { __kodoEntryScript: entry } = globalThis as { __kodoEntryScript?: EntryScript };
    delete (globalThis as { __kodoEntryScript?: EntryScript }).__kodoEntryScript;
    const cache = installCodeCache({
      distDir: __dirname,
      ...(entry ? { entry } : {}),
      cacheDir: codeCacheDir(join(__dirname, 'code-cache')),
      moduleClass: module.constructor,
      ...(typeof __KODO_BUILD_ID__ === 'string' ? { buildId: __KODO_BUILD_ID__ } : {}),
      // Written by scripts/hot-pack.mjs in the same build as this entry.
      packFile: 'hot-pack.cjs',
      // The build's warm-up runs kodo more than once, over different paths (a prompt, then a
      // custom command): each run's caches must keep what the runs before compiled.
      ...(cacheMode === 'warm-up' ? { rewriteAll: true } : {}),
    });
    // For the interactive UI, which changes V8's flags at run time (memory-mode.ts).
    Object.assign(globalThis, { __kodoCodeCache: cache });
    if (cache && cacheMode === 'warm-up') {
      // The build's warm-up run (scripts/warm-code-cache.mjs): the start-up path's caches hold
      // what ran up to the first model request.
      const { subscribe, unsubscribe } =
        require('node:diagnostics_channel') as typeof import('node:diagnostics_channel');
      const onRequest = () => {
        unsubscribe('http.client.request.start', onRequest);
        cache.snapshot();
      };
      subscribe('http.client.request.start', onRequest);
    }
    if (cache && cacheMode === 'report') {
      process.once('exit', () => {
        const { compiled, fromCache, rejected, packed } = cache.stats();
        process.stderr.write(
          `[code cache] ${compiled} scripts compiled (${fromCache} from the cache, ${rejected} rejected), ${packed} chunks from the pack\n`,
        );
      });
    }
  }
  // require, not import(): the bundle is CommonJS and must not pass through the ES module loader.
  const { runCli } = require('./run') as typeof import('./run');
  // A code past 255 would wrap (256 → 0: success); see exit-codes.ts.
  const code = await runCli(argv, { version: KODO_VERSION, helpText: HELP_TEXT, commandHelp });
  process.exitCode = Number.isInteger(code) && code >= 0 && code <= 255 ? code : 1;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `[ERROR] An unexpected critical error occurred: ${(error as Error)?.stack ?? String(error)}\n`,
  );
  process.exitCode = 1;
});
