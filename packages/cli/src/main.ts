// Entry point of `kodo`, built as dist/kodo.cjs (bin/kodo.cjs requires it). A small CommonJS
// file: Node starts a CommonJS entry faster than an ES module one, so `--version` and `--help`
// answer at the speed of a bare `node`. Every other path imports the bundle (dist/cli.mjs, ES
// modules code-split so each mode loads only what it needs; packages/cli/src/on-demand.ts lists
// what loads later). Where Node has it (22.1+), V8's compiled code is kept between runs by
// Node's own compile cache; on Node 20 the bundle is compiled from source as Node does.
import { join } from 'node:path';
import { commandHelp, HELP_TEXT } from './shared/help';
import { KODO_VERSION } from './shared/version';

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

/**
 * Keeps V8's compiled code of the bundle between runs (Node 22.1+; `KODO_COMPILE_CACHE=off`
 * turns it off). The cache lives in kodo's home, which only the user writes, not in the shared
 * temp folder Node would pick: compiled code read from there runs as kodo.
 */
function enableCompileCache(env: NodeJS.ProcessEnv): void {
  if (env.KODO_COMPILE_CACHE === 'off' || env.NODE_COMPILE_CACHE !== undefined) return;
  // Before 22 there is none, and loading `node:module` to find that out costs ~1 ms on Node 20
  // (it pulls in the source-map support).
  if (nodeMajor() < 22) return;
  const nodeModule = require('node:module') as { enableCompileCache?: (directory?: string) => unknown };
  if (typeof nodeModule.enableCompileCache !== 'function') return;
  const home = env.KODO_HOME?.trim() ? env.KODO_HOME : join(require('node:os').homedir() as string, '.kodo');
  try {
    nodeModule.enableCompileCache(join(home, 'cache', 'compile'));
  } catch {
    // A cache is a speed-up: without one (read-only home…) kodo compiles from source.
  }
}

function nodeMajor(): number {
  return Number(process.versions.node.split('.')[0]);
}

type Bundle = typeof import('./run');

/**
 * The bundle: ES modules (esbuild splits only those); scripts/build.mjs points './run' at
 * dist/cli.mjs. Node 20.19+ loads ES modules synchronously through `require`, which spares Node
 * 20 the first use of its asynchronous ES module loader (~5 ms before the first request,
 * docs/performance.md "Session 17"). Node 22+ gains nothing measurable that way and keeps
 * `import()` (22.12 also printed a warning for `require` of an ES module).
 */
function loadBundle(): Promise<Bundle> {
  if (nodeMajor() === 20 && process.features.require_module)
    return Promise.resolve(require('./run') as Bundle);
  return import('./run') as Promise<Bundle>;
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
  // The bundle's chunks answer their dependencies' require() of Node's modules with it (build.mjs).
  if (typeof process.getBuiltinModule !== 'function') {
    process.stderr.write(`kodo needs Node 20.18.1 or newer, or 22.3 or newer; this is ${process.version}.\n`);
    process.exitCode = 1;
    return;
  }
  enableCompileCache(process.env);
  const { runCli } = await loadBundle();
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
