/**
 * The build marks the functions that run before the first request for eager compilation
 * (scripts/eager-compile.mjs, fed by scripts/startup-profile.mjs): Node 22+'s compile cache then
 * holds their code, and Node 20 parses them once instead of twice. The rewrite must keep what the
 * chunk means (hoisting, names, `this`), its source map must still lead to the sources, and the
 * built kodo must really compile its start-up functions with their chunk.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types
import * as eagerCompile from '../../../../scripts/eager-compile.mjs';

const { chunksInImportCycles, markEagerChunks, markEagerFunctions } = eagerCompile;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'kodo-eager-compile-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every function's range start as V8 reports it: what the start-up profile would record. */
function everyFunctionStart(source: string): Set<number> {
  const starts = new Set<number>();
  for (const match of source.matchAll(/function\b|=>/g)) {
    // The head of a declaration or expression begins at `function`; an arrow's at its parameters.
    if (match[0] === 'function') starts.add(match.index);
    else
      starts.add(
        source.lastIndexOf('(', match.index) >= 0 ? source.lastIndexOf('(', match.index) : match.index,
      );
  }
  return starts;
}

async function evaluate(code: string, name: string): Promise<Record<string, unknown>> {
  const file = join(scratch, `${name}.mjs`);
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

const CHUNK = `const early = late(2);
function late(x) { return x * 10; }
function unused() { return 'never ran'; }
const add = (a, b) => a + b;
const named = (x) => x;
const obj = { count: 1, bump() { return ++this.count; }, get twice() { return this.count * 2; } };
class Counter { n = 0; inc = () => ++this.n; step() { return [1, 2].map(function (v) { return v + this.n; }, this); } }
function usesArguments() { return [1].map(() => arguments.length)[0]; }
const lazyInit = (init, mod) => () => { try { return mod || init((mod = { exports: {} }).exports, mod), mod.exports; } catch (e) { throw (mod = 0), e; } };
const make = (x) => function () { return x; };
const requireThing = lazyInit((exports) => { exports.value = make(42)(); });
export { early, late, unused, add, named, obj, Counter, usesArguments, requireThing };
`;

describe('marking a chunk for eager compilation', () => {
  it('keeps what the chunk means: hoisting, names, this and arguments', async () => {
    const result = markEagerFunctions(CHUNK, everyFunctionStart(CHUNK), {
      inCycle: false,
      fileName: 'chunk.mjs',
    });
    expect(result.declarations).toBeGreaterThanOrEqual(3);
    expect(result.code).toMatch(/var late=\(function late\(x\)/);
    // The declaration moved above the code that calls it before its old place.
    expect(result.code.indexOf('var late=')).toBeLessThan(result.code.indexOf('const early'));
    // Plain arrows became function expressions in parentheses; an arrow using `this` did not.
    expect(result.code).toContain('(function(a, b){return a + b})');
    expect(result.code).toContain('inc = () => ++this.n');
    expect(result.code).toContain('() => arguments.length');

    const module = await evaluate(result.code, 'marked');
    expect(module.early).toBe(20);
    expect((module.add as (a: number, b: number) => number)(2, 3)).toBe(5);
    expect((module.named as { name: string }).name).toBe('named');
    const obj = module.obj as { bump(): number; twice: number };
    expect(obj.bump()).toBe(2);
    expect(obj.twice).toBe(4);
    const counter = new (module.Counter as new () => { inc(): number; step(): number[] })();
    expect(counter.inc()).toBe(1);
    expect(counter.step()).toEqual([2, 3]);
    expect((module.usesArguments as (...a: unknown[]) => number)(7, 8, 9)).toBe(3);
    // Arrows that end where the arrow around them ends (esbuild's own helpers are written so).
    expect((module.requireThing as () => { value: number })().value).toBe(42);
  });

  it('leaves the functions that did not run as they were', () => {
    const ranOnlyLate = new Set([CHUNK.indexOf('function late')]);
    const result = markEagerFunctions(CHUNK, ranOnlyLate, { inCycle: false, fileName: 'chunk.mjs' });
    expect(result.declarations).toBe(1);
    expect(result.code).toContain("function unused() { return 'never ran'; }");
    expect(result.code).toContain('const add = (a, b) => a + b;');
  });

  it('keeps the exported functions of a chunk in an import cycle hoisted', () => {
    const result = markEagerFunctions(CHUNK, everyFunctionStart(CHUNK), {
      inCycle: true,
      fileName: 'chunk.mjs',
    });
    expect(result.declarations).toBe(0);
    expect(result.code).toContain('function late(x) { return x * 10; }');
  });

  it('finds import cycles between chunks in the metafile', () => {
    const outputs = {
      'dist/a.mjs': { imports: [{ path: 'dist/b.mjs', kind: 'import-statement' }] },
      'dist/b.mjs': { imports: [{ path: 'dist/c.mjs', kind: 'import-statement' }] },
      'dist/c.mjs': { imports: [{ path: 'dist/a.mjs', kind: 'import-statement' }] },
      'dist/d.mjs': {
        imports: [
          { path: 'dist/a.mjs', kind: 'import-statement' },
          { path: 'dist/d.mjs', kind: 'dynamic-import' },
        ],
      },
    };
    const inCycle = chunksInImportCycles({ outputs }, '/w');
    expect([...inCycle].sort()).toEqual(['/w/dist/a.mjs', '/w/dist/b.mjs', '/w/dist/c.mjs']);
  });

  it('updates the linked source map so that positions still lead to the sources', async () => {
    const original =
      'function greet(name) {\n  return "hi " + name;\n}\nconst shout = (s) => s.toUpperCase();\nexport { greet, shout };\n';
    const bundled = await transform(original, { sourcemap: true, sourcefile: 'greet.ts', format: 'esm' });
    const chunk = join(scratch, 'greet.mjs');
    writeFileSync(chunk, `${bundled.code}//# sourceMappingURL=greet.mjs.map\n`);
    writeFileSync(`${chunk}.map`, bundled.map);
    const code = readFileSync(chunk, 'utf8');
    const totals = markEagerChunks(new Map([[chunk, everyFunctionStart(code)]]), { inCycle: new Set() });
    expect(totals.declarations + totals.expressions).toBe(2);

    const marked = readFileSync(chunk, 'utf8');
    expect(marked).toContain('//# sourceMappingURL=greet.mjs.map');
    const map = new SourceMap(JSON.parse(readFileSync(`${chunk}.map`, 'utf8')));
    const position = (needle: string) => {
      const offset = marked.indexOf(needle);
      const before = marked.slice(0, offset).split('\n');
      return map.findEntry(before.length - 1, before.at(-1)!.length) as {
        originalSource: string;
        originalLine: number;
      };
    };
    expect(position('toUpperCase')).toMatchObject({ originalLine: 3 });
    expect(position('"hi "')).toMatchObject({ originalLine: 1 });
    expect(position('toUpperCase').originalSource).toMatch(/greet\.ts$/);
  });
});

describe('the built kodo', () => {
  it('compiles most of the functions it runs before its first request with their chunk', () => {
    // V8's function events: `first-execution` for each function that runs, `parse-function` for
    // each compiled on its first call. Unmarked (KODO_EAGER_COMPILE=off), nearly every function
    // that runs is compiled on its first call (93 % of them; marked, 41 %).
    const log = join(scratch, 'functions.log');
    const home = mkdtempSync(join(scratch, 'home-'));
    const fake = join(scratch, 'fake.jsonl');
    writeFileSync(
      fake,
      `${JSON.stringify({ method: 'generateContentStream', response: [{ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }] })}\n`,
    );
    const run = spawnSync(
      process.execPath,
      [
        '--log-function-events',
        `--logfile=${log}`,
        '--no-logfile-per-isolate',
        join(root, 'packages/cli/bin/kodo.cjs'),
        '--fake-responses',
        fake,
        '-p',
        'hi',
      ],
      {
        cwd: scratch,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          KODO_HOME: home,
          KODO_TRUST_WORKSPACE: 'true',
          GEMINI_API_KEY: 'x',
        },
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const chunkScripts = new Set<string>();
    const ran = new Set<string>();
    const compiledOnCall = new Set<string>();
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      const fields = line.split(',');
      if (fields[0] === 'script-details' && /\/dist\/chunks\/chunk-[^/]+\.mjs$/.test(fields[2] ?? '')) {
        chunkScripts.add(fields[1]!);
      }
      if (fields[0] !== 'function') continue;
      const key = `${fields[2]}:${fields[3]}`;
      if (fields[1] === 'first-execution') ran.add(key);
      if (fields[1] === 'parse-function') compiledOnCall.add(key);
    }
    const inChunks = (key: string) => chunkScripts.has(key.split(':')[0]!);
    const ranInChunks = [...ran].filter(inChunks);
    const lazy = ranInChunks.filter((key) => compiledOnCall.has(key));
    expect(ranInChunks.length).toBeGreaterThan(200);
    expect(lazy.length / ranInChunks.length).toBeLessThan(0.6);
  });
});
