// An esbuild plugin: the bundle reaches Node's built-in modules (`node:fs`, `path` …) through
// `require` (the banner's: `process.getBuiltinModule` where Node has it) instead of ES `import`.
//
// Why: Node links a built-in into an ES module through a facade that copies every export of the
// module up front, and copying reads lazy getters (`fs.ReadStream` loads the stream classes). The
// first request's chunk imports about ten built-ins that way. Here each built-in becomes a small ES
// module of the bundle: `export const readFileSync = pick(fs, "readFileSync")` for every export,
// each marked pure, so esbuild keeps only the names the bundle uses and reads nothing else. (A
// CommonJS shim would be simpler, but esbuild then copies every export into a getter object once
// per importing file: slower than the facade it replaces.)
import { builtinModules, createRequire } from 'node:module';

const builtins = new Set(builtinModules);
const nodeRequire = createRequire(import.meta.url);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Export names that cannot be a `const` (none of Node's today; checked, not assumed).
const RESERVED = new Set(['default', 'delete', 'new', 'function', 'class', 'import', 'export', 'in', 'do']);

export function builtinsByRequire() {
  return {
    name: 'builtins-by-require',
    setup(build) {
      build.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
        const id = args.path.startsWith('node:') ? args.path.slice(5) : args.path;
        // Static imports only. Sources load a built-in on first use with loadBuiltin (core's
        // utils/builtin.ts), never `import()`: that would build the facade (a test checks).
        if (!builtins.has(id) || args.kind !== 'import-statement') return undefined;
        return { path: id, namespace: 'node-builtin' };
      });
      build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
        contents: builtinModuleSource(args.path),
        loader: 'js',
      }));
    },
  };
}

/** The ES module that stands for built-in `id`: its default export and each named export. */
function builtinModuleSource(id) {
  const names = Object.keys(nodeRequire(`node:${id}`)).filter(
    (name) => IDENTIFIER.test(name) && !RESERVED.has(name),
  );
  return [
    `const builtin = require(${JSON.stringify(`node:${id}`)});`,
    'function pick(name) { return builtin[name]; }',
    'export default builtin;',
    ...names.map((name) => `export const ${name} = /* @__PURE__ */ pick(${JSON.stringify(name)});`),
  ].join('\n');
}
