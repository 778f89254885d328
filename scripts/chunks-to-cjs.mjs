// Turns esbuild's code-split ES module output into CommonJS files, in place.
//
// Why: on Node 20 an ES module graph costs kodo's headless start ~25 ms before any of its code
// runs (the ESM loader itself, one asynchronous read and link step per chunk, no code cache),
// while CommonJS chunks load with synchronous reads and can use V8's code cache (see
// packages/cli/src/code-cache.ts). esbuild splits only ES modules, so the build splits first and
// converts each chunk afterwards with esbuild's own ESM → CJS transform.
//
// A chunk that cannot be CommonJS (top-level await: Ink's yoga-layout WebAssembly start-up) stays
// an ES module. Such chunks import the CommonJS chunks (`.cjs`), never second copies, so every
// module exists once whichever way it is reached. CommonJS chunks reach them through a function
// the entry defines (`import()` itself cannot be used in code compiled from V8's code cache on
// Node 20: the loaded code loses its dynamic-import callback).

import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { init as initModuleLexer, parse as parseModule } from 'es-module-lexer';
import { transform } from 'esbuild';

/** The global the entry (packages/cli/src/main.ts) sets: `(fileUrl) => import(fileUrl)`. */
const ESM_IMPORT_GLOBAL = '__kodoImportEsm';
/** The global the entry sets: `(importerUrl, specifier) => require(<specifier beside importer>)`. */
const CJS_REQUIRE_GLOBAL = '__kodoRequireChunk';

/**
 * `__kodoImport(specifier)` for a CommonJS chunk: a built-in module from `require` (shaped like
 * an import() namespace), anything else through the entry's real import(), relative paths
 * resolved from the chunk's own directory.
 */
const IMPORT_HELPER = `var __kodoRequire=require,__kodoImport=(id)=>{const builtin=process.getBuiltinModule?.(id);if(builtin)return Promise.resolve({...builtin,default:builtin});const target=/^\\.\\.?\\//.test(id)?__kodoRequire("node:url").pathToFileURL(__kodoRequire("node:path").join(__dirname,id)).href:id;return globalThis.${ESM_IMPORT_GLOBAL}(target)};`;

/**
 * @param {{ outDir: string, metafile: import('esbuild').Metafile, workingDir?: string }} options
 *   workingDir: the build's absWorkingDir (metafile paths are relative to it; default: cwd)
 * @returns {Promise<{ converted: string[], keptEsm: string[] }>} paths relative to outDir
 */
export async function convertChunksToCjs({ outDir, metafile, workingDir = process.cwd() }) {
  const outputs = Object.entries(metafile.outputs)
    .filter(([path]) => path.endsWith('.mjs'))
    .map(([path, output]) => ({ file: join(workingDir, path), output }));
  failOnStaticCycles(outputs);

  const sources = new Map();
  for (const { file } of outputs) sources.set(file, stripEsmBanner(await readFile(file, 'utf8')));
  const keptEsm = new Set();
  for (const [file, source] of sources) {
    if (await hasTopLevelAwait(source)) keptEsm.add(basename(file));
  }

  const converted = [];
  for (const [file, source] of sources) {
    if (keptEsm.has(basename(file))) {
      // An ES module chunk keeps its `require` shim (the banner).
      const original = await readFile(file, 'utf8');
      await writeFile(file, await requireCjsChunks(renameChunkReferences(original, keptEsm)));
      continue;
    }
    const cjsFile = file.replace(/\.mjs$/, '.cjs');
    const inputMap = await readFile(`${file}.map`, 'utf8').catch(() => undefined);
    const { code, map } = await toCjs(source, { inputMap, keptEsm });
    await failOnDynamicImport(code, cjsFile);
    await writeFile(
      cjsFile,
      `${renameChunkReferences(code, keptEsm)}//# sourceMappingURL=${basename(cjsFile)}.map\n`,
    );
    await writeFile(`${cjsFile}.map`, map);
    await rm(file);
    await rm(`${file}.map`, { force: true });
    converted.push(relative(outDir, cjsFile));
  }
  return { converted, keptEsm: [...keptEsm] };
}

/** The ES module bundle's `require` shim (a banner of scripts/build.mjs); CommonJS has the real one. */
function stripEsmBanner(source) {
  return source.replace(/^const require = [\s\S]*?createRequire\(import\.meta\.url\);\n/, '');
}

async function hasTopLevelAwait(source) {
  try {
    await transform(source, { format: 'cjs', platform: 'node', target: 'node20', logLevel: 'silent' });
    return false;
  } catch (error) {
    if (String(error.message).includes('Top-level await')) return true;
    throw error;
  }
}

/**
 * @param {string} source
 * @param {{ inputMap: string | undefined, keptEsm: Set<string> }} options
 * @returns {Promise<{ code: string, map: string }>}
 */
async function toCjs(source, { inputMap, keptEsm }) {
  // Dynamic imports of converted chunks are left to esbuild, which makes them require() calls
  // (synchronous, code-cached). The rest go through one helper: chunks that stay ES modules get a
  // real import() (from the entry), Node's built-in modules a require() with the namespace shape
  // import() gives. (esbuild's own conversion would emit a bare `require(…)`, which breaks inside
  // bundled code that declares a local `require`, as Emscripten's output does.)
  let helperUsed = false;
  const rewritten = source.replace(/(?<![\w$.])import\((["'])([^"']+)\1\)/g, (match, quote, specifier) => {
    const convertedChunk =
      /^\.\.?\//.test(specifier) && specifier.endsWith('.mjs') && !keptEsm.has(basename(specifier));
    if (convertedChunk) return match;
    helperUsed = true;
    return `__kodoImport(${quote}${specifier}${quote})`;
  });
  const preamble = [
    rewritten.includes('import.meta')
      ? 'var __kodoImportMetaUrl=require("node:url").pathToFileURL(__filename).href;'
      : '',
    helperUsed ? IMPORT_HELPER : '',
  ].join('');
  // esbuild chains an inline input source map, so stack traces still lead to the TypeScript.
  const withMap = inputMap
    ? `${rewritten.replace(/\/\/# sourceMappingURL=.*\n?$/, '')}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(inputMap).toString('base64')}\n`
    : rewritten;
  return transform(withMap, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__kodoImportMetaUrl' },
    banner: preamble,
    sourcemap: 'external',
    logLevel: 'error',
  });
}

/**
 * `./chunk-X.mjs` → `./chunk-X.cjs` for converted chunks; references to the chunks that stay ES
 * modules keep `.mjs`.
 */
function renameChunkReferences(code, keptEsm) {
  return code.replace(/(["'])((?:\.\.?\/)(?:chunks\/)?)([\w.-]+)\.mjs\1/g, (match, quote, dir, name) =>
    keptEsm.has(`${name}.mjs`) ? match : `${quote}${dir}${name}.cjs${quote}`,
  );
}

/**
 * In a chunk that stays an ES module, static imports of CommonJS chunks become calls of the
 * entry's require function: `import{a as b}from"./chunk-X.cjs"` → `const{a:b}=…`, and
 * `import"./chunk-X.cjs"` → a plain call. Left as imports, each would make Node's ES module loader
 * read and lex the chunk (and what it re-exports) to find its export names: ~20 ms for the UI's
 * start. The bindings are the same snapshot Node's interop would give (CommonJS named exports are
 * not live), and the chunks run in the same order, before the rest of the module.
 */
async function requireCjsChunks(code) {
  await initModuleLexer;
  const [imports] = parseModule(code);
  let out = '';
  let last = 0;
  for (const entry of imports) {
    const specifier = entry.n;
    if (entry.d !== -1 || !specifier?.startsWith('./') || !specifier.endsWith('.cjs')) continue;
    const statement = code.slice(entry.ss, entry.se);
    const call = `globalThis.${CJS_REQUIRE_GLOBAL}(import.meta.url,${JSON.stringify(specifier)})`;
    let replacement;
    if (/^import\s*["']/.test(statement)) {
      replacement = `${call};`;
    } else {
      const named = /^import\s*\{([^}]*)\}\s*from\s*["'][^"']+["']$/.exec(statement);
      if (!named)
        throw new Error(`cannot rewrite this import of a CommonJS chunk: ${statement.slice(0, 200)}`);
      const bindings = named[1]
        .split(',')
        .map((binding) => binding.trim())
        .filter(Boolean)
        .map((binding) => binding.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, '$1:$2'));
      replacement = `const{${bindings.join(',')}}=${call};`;
    }
    out += code.slice(last, entry.ss) + replacement;
    last = entry.se;
    if (code[last] === ';') last += 1;
  }
  return out + code.slice(last);
}

/** A real `import(` left in a CommonJS chunk would fail at run time under the code cache. */
async function failOnDynamicImport(code, file) {
  const pattern = /(?<![\w$."'`])import\(/;
  if (!pattern.test(code)) return;
  // Comments (an unminified build keeps them) may say `import(`; look again without them.
  const { code: bare } = await transform(code, {
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const found = pattern.exec(bare);
  if (found) {
    throw new Error(
      `${file}: an import() remains after the CommonJS conversion: …${bare.slice(Math.max(0, found.index - 60), found.index + 60)}…`,
    );
  }
}

/**
 * CommonJS has no answer to import cycles (a required module may see a half-filled exports
 * object); esbuild's chunks normally form none. Fail the build loudly if they ever do.
 */
function failOnStaticCycles(outputs) {
  const edges = new Map(
    outputs.map(({ file, output }) => [
      basename(file),
      output.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => basename(i.path)),
    ]),
  );
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'active')
      throw new Error(`import cycle between chunks: ${[...trail, name].join(' → ')}`);
    state.set(name, 'active');
    for (const next of edges.get(name) ?? []) visit(next, [...trail, name]);
    state.set(name, 'done');
  };
  for (const name of edges.keys()) visit(name, []);
}
