// Marks the functions that run on the way to the first request (and to the terminal UI's prompt)
// for eager compilation.
//
// V8 compiles a function on its first call unless the parser guesses it will be called at once;
// its guess is a `function` keyword right after an opening parenthesis, `(function f() {…})`.
// Two things follow for kodo's start-up:
// - Node 22+'s compile cache (module.enableCompileCache) stores the code V8 produced when it
//   compiled the module, before the module ran: only the top level and the functions compiled
//   with it. Every function compiled later, on its first call, is compiled from source again on
//   every run (~500 functions before a loaded home's first request).
// - Without a cache (Node 20), a lazily compiled function is parsed twice: pre-parsed with its
//   chunk, then parsed in full on its first call.
// So the build rewrites each top-level `function f(…) {…}` that the start-up profile saw run
// (startup-profile.mjs) as `var f = (function f(…) {…});`, moved to the top of its chunk where
// the declaration's hoisting had it, parenthesises every function expression that ran, and
// rewrites every arrow that ran and does not use `this` or `arguments` as such an expression.
// Methods cannot take the hint and stay lazy. Only functions that ran: compiling the whole
// bundle eagerly costs Node 20 more than it saves.
//
// A declaration is hoisted across modules too: another chunk that imports it sees it even before
// its own chunk has run, which matters in an import cycle. A `var` is undefined until its chunk
// runs, so functions that a chunk in an import cycle exports are left as they are.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import remapping from '@jridgewell/remapping';
import { parse } from 'acorn';
import { transformSync } from 'esbuild';
import MagicString from 'magic-string';

/** Whether one of `offsets` (V8's function range starts) falls in the function's head. */
function ran(node, offsets) {
  for (let offset = node.start; offset <= node.body.start; offset += 1) {
    if (offsets.has(offset)) return true;
  }
  return false;
}

/** The local names a chunk exports (esbuild ends each chunk with one `export { a as b, … }`). */
function exportedNames(program) {
  const names = new Set();
  for (const node of program.body) {
    if (node.type !== 'ExportNamedDeclaration') continue;
    for (const specifier of node.specifiers) names.add(specifier.local.name);
    if (node.declaration?.type === 'FunctionDeclaration') names.add(node.declaration.id.name);
  }
  return names;
}

/** Where moved declarations go: after the imports and esbuild's banner (the `require` shim). */
function topOfChunk(program, source) {
  let position = 0;
  for (const node of program.body) {
    const isBanner =
      node.type === 'VariableDeclaration' && source.slice(node.start, node.start + 16) === 'const require = ';
    if (node.type !== 'ImportDeclaration' && !isBanner) break;
    position = node.end;
  }
  return position;
}

/**
 * Every function the tree's hint can reach and that lacks it: function expressions not in
 * parentheses yet, and arrow functions, which have no such hint; a method (of a class or an
 * object literal), getter or setter cannot stand in parentheses.
 */
function functionLiterals(program) {
  const found = [];
  const stack = [[program, undefined]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop();
    const isMethod =
      parent?.type === 'MethodDefinition' ||
      (parent?.type === 'Property' && (parent.method || parent.kind !== 'init'));
    const isLiteral = node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';
    if (isLiteral && !isMethod && parent?.type !== 'ParenthesizedExpression') found.push(node);
    for (const child of childNodes(node)) stack.push([child, node]);
  }
  // Outside in, as a walk of the source meets them (the closers' order depends on it).
  return found.sort((x, y) => x.start - y.start || y.end - x.end);
}

/** The syntax nodes directly under `node`, whatever the property that holds them. */
function childNodes(node) {
  const children = [];
  for (const key in node) {
    const value = node[key];
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child === 'object' && typeof child.type === 'string') children.push(child);
    }
  }
  return children;
}

/**
 * Whether an arrow function means the same as a function expression: it does not use what an
 * arrow takes from its surroundings (`this`, `arguments`, `super`, `new.target`), in its own body
 * or in an arrow inside it.
 */
function arrowIsPlain(arrow) {
  const uses = (node) => {
    if (node.type === 'ThisExpression' || node.type === 'Super' || node.type === 'MetaProperty') return true;
    if (node.type === 'Identifier' && node.name === 'arguments') return true;
    if (node.type === 'FunctionExpression' || node.type === 'FunctionDeclaration') return false;
    if (node.type === 'ClassExpression' || node.type === 'ClassDeclaration') return true;
    return childNodes(node).some(uses);
  };
  return !arrow.params.some(uses) && !uses(arrow.body);
}

/** Whether a function's parameters hold a function (a default value): rewritten with them, it would be edited twice. */
function paramsHoldFunctions(node, source) {
  return (
    node.params.length > 0 && /=>|function/.test(source.slice(node.params[0].start, node.params.at(-1).end))
  );
}

/**
 * `(a, b) => a + b` as `(function (a, b) {return a + b})`, which V8 compiles with its chunk. The
 * closers go in with prependLeft: literals are visited outside in, and where an inner one ends
 * with its outer one (`() => () => {…}`), the inner one's closer must come first.
 */
function rewriteArrow(text, source, arrow) {
  const params = arrow.params.length > 0 ? source.slice(arrow.params[0].start, arrow.params.at(-1).end) : '';
  const head = `(${arrow.async ? 'async ' : ''}function(${params})`;
  if (arrow.expression) {
    text.overwrite(arrow.start, arrow.body.start, `${head}{return `, { contentOnly: true });
    text.prependLeft(arrow.end, '})');
  } else {
    text.overwrite(arrow.start, arrow.body.start, head, { contentOnly: true });
    text.prependLeft(arrow.end, ')');
  }
}

/**
 * Rewrites one chunk's source so that the functions at `offsets` compile with the chunk.
 * `inCycle`: the chunk is part of an import cycle (its exported functions stay declarations).
 * Returns the new source and a source map from it to the original source.
 */
export function markEagerFunctions(source, offsets, { inCycle, fileName }) {
  const program = parse(source, { ecmaVersion: 'latest', sourceType: 'module', preserveParens: true });
  const text = new MagicString(source);
  const exported = inCycle ? exportedNames(program) : new Set();
  const top = topOfChunk(program, source);
  let declarations = 0;
  let expressions = 0;
  for (const node of program.body) {
    if (node.type !== 'FunctionDeclaration' || !ran(node, offsets) || exported.has(node.id.name)) continue;
    text.prependRight(node.start, `var ${node.id.name}=(`);
    text.appendLeft(node.end, ');');
    if (node.start > top) text.move(node.start, node.end, top);
    declarations += 1;
  }
  for (const node of functionLiterals(program)) {
    if (!ran(node, offsets)) continue;
    if (node.type === 'FunctionExpression') {
      text.prependRight(node.start, '(');
      text.prependLeft(node.end, ')');
    } else if (arrowIsPlain(node) && !paramsHoldFunctions(node, source)) {
      rewriteArrow(text, source, node);
    } else continue;
    expressions += 1;
  }
  const code = text.toString();
  // A rewrite that broke the syntax must fail the build, not the user's first run (esbuild's
  // parser: it checks a chunk in milliseconds where acorn takes a tenth of a second).
  transformSync(code, { loader: 'js', format: 'esm', logLevel: 'silent' });
  return {
    code,
    map: text.generateMap({ hires: 'boundary', source: fileName, includeContent: false }),
    declarations,
    expressions,
  };
}

/**
 * The chunks (absolute paths) that import each other, directly or around a longer cycle, from
 * esbuild's metafile of a build run in `workingDir`.
 */
export function chunksInImportCycles(metafile, workingDir) {
  const imports = new Map();
  for (const [output, info] of Object.entries(metafile.outputs)) {
    imports.set(
      output,
      info.imports.filter((entry) => entry.kind === 'import-statement').map((entry) => entry.path),
    );
  }
  const inCycle = new Set();
  for (const start of imports.keys()) {
    const seen = new Set();
    const stack = [...(imports.get(start) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop();
      if (next === start) {
        inCycle.add(join(workingDir, start));
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(imports.get(next) ?? []));
    }
  }
  return inCycle;
}

/**
 * Rewrites each chunk in `called` (path → offsets of the functions that ran) in place, its
 * linked source map updated to point through the rewrite to the original sources.
 */
export function markEagerChunks(called, { inCycle }) {
  const totals = { chunks: 0, declarations: 0, expressions: 0 };
  for (const [path, offsets] of called) {
    if (offsets.size === 0) continue;
    const source = readFileSync(path, 'utf8');
    const result = markEagerFunctions(source, offsets, {
      inCycle: inCycle.has(path),
      fileName: basename(path),
    });
    if (result.declarations + result.expressions === 0) continue;
    const mapPath = `${path}.map`;
    const bundleMap = JSON.parse(readFileSync(mapPath, 'utf8'));
    const composed = remapping(result.map, (file) => (file === basename(path) ? bundleMap : null));
    writeFileSync(path, result.code);
    writeFileSync(mapPath, JSON.stringify(composed));
    totals.chunks += 1;
    totals.declarations += result.declarations;
    totals.expressions += result.expressions;
  }
  return totals;
}
