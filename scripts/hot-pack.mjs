// Packs the CommonJS chunks that every headless run loads before its first request into one file,
// dist/hot-pack.cjs: an object of module functions keyed by chunk path. The code cache loader
// (packages/cli/src/code-cache.ts) compiles it once, with one V8 code cache, and serves those
// chunks from it instead of reading, checking and compiling ~20 small files one by one.
//
// The chunk files stay where they are: Node still resolves `require('./chunks/…')` to them, and
// with the loader off (KODO_CODE_CACHE=off) they load as usual. The pack carries the build's id
// (the entry has the same one built in) and each chunk's size: a pack from another build is not
// used, a chunk whose size changed is read from its file. Not mtimes: npm sets every file's mtime
// to one fixed date when it installs a package.

import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';

const HOT_PACK_FILE = 'hot-pack.cjs';

/**
 * @param {{
 *   outDir: string,
 *   metafile: import('esbuild').Metafile,
 *   entryPoints: string[],
 *   converted: string[],
 *   buildId: string,
 *   workingDir?: string,
 * }} options entryPoints: source paths (relative to workingDir, the build's absWorkingDir, as the
 *   metafile has them) whose chunks and static imports go in
 * @returns {Promise<string[]>} the packed chunks, relative to outDir
 */
export async function writeHotPack({
  outDir,
  metafile,
  entryPoints,
  converted,
  buildId,
  workingDir = process.cwd(),
}) {
  const outputs = metafile.outputs;
  const roots = Object.keys(outputs).filter((path) => entryPoints.includes(outputs[path].entryPoint ?? ''));
  if (roots.length !== entryPoints.length) {
    throw new Error(`hot pack: expected chunks for ${entryPoints.join(', ')}, found ${roots.join(', ')}`);
  }
  const seen = new Set();
  const ordered = [];
  const visit = (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imported of outputs[path].imports) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
    ordered.push(path);
  };
  for (const root of roots) visit(root);

  const convertedSet = new Set(converted);
  const packed = ordered
    .map((path) => relative(outDir, join(workingDir, path)).replace(/\.mjs$/, '.cjs'))
    .filter((path) => convertedSet.has(path));

  const parts = [];
  let line = 0;
  const append = (text) => {
    parts.push(text);
    line += text.split('\n').length - 1;
  };
  append(`"use strict";\nmodule.exports = { buildId: ${JSON.stringify(buildId)}, chunks: {\n`);
  const sections = [];
  for (const path of packed) {
    const file = join(outDir, path);
    const code = (await readFile(file, 'utf8')).replace(/\/\/# sourceMappingURL=.*\n?$/, '');
    const { size } = await stat(file);
    append(
      `${JSON.stringify(path)}: { size: ${size}, load: function (exports, require, module, __filename, __dirname) {\n`,
    );
    const map = await readFile(`${file}.map`, 'utf8').catch(() => undefined);
    if (map)
      sections.push({ offset: { line, column: 0 }, map: withSourcesFrom(JSON.parse(map), file, outDir) });
    append(`${code}\n} },\n`);
  }
  append(`} };\n//# sourceMappingURL=${HOT_PACK_FILE}.map\n`);
  await writeFile(join(outDir, HOT_PACK_FILE), parts.join(''));
  // An index source map: each chunk's own map, at the line where its code starts in the pack.
  await writeFile(join(outDir, `${HOT_PACK_FILE}.map`), JSON.stringify({ version: 3, sections }));
  return packed;
}

/** A chunk's map with its sources made relative to the pack (which lives in outDir). */
function withSourcesFrom(map, chunkFile, outDir) {
  const from = dirname(chunkFile);
  return {
    ...map,
    file: basename(chunkFile),
    sources: map.sources.map((source) => relative(outDir, join(from, source))),
  };
}
