/**
 * `npm pack` of the cli makes a package that installs anywhere (`npm install -g kodo-*.tgz`):
 * the bundle carries the workspace packages inside it, so the tarball must hold every file the
 * bundle loads, name no `@kodo/*` package as a dependency (those are not on the registry), and
 * declare every package the bundle still loads from node_modules.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cliDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** `pkg`, `pkg/sub/path`, `@scope/pkg…`: what a require or import of a package looks like. */
const PACKAGE_SPECIFIER = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]+)?$/;

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

describe('npm pack of the cli', () => {
  it('holds the entry, the bundle, the demo, the shell parser and the licence; depends on nothing from the workspace', () => {
    const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: cliDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
    const packed = new Set(pack!.files.map((file) => file.path));
    for (const needed of [
      'bin/kodo.cjs',
      'dist/kodo.cjs',
      'dist/cli.mjs',
      'dist/demo/session.jsonl',
      'dist/wasm/tree-sitter-bash.wasm',
      'dist/wasm/web-tree-sitter.wasm',
      'LICENSE',
    ]) {
      expect(packed, needed).toContain(needed);
    }
    // Every file of the built bundle goes into the tarball, but its source maps (two thirds of
    // its size, read by nothing at run time).
    const built = filesUnder(join(cliDir, 'dist'));
    for (const file of built) {
      if (file.endsWith('.map')) expect(packed, file).not.toContain(`dist/${file}`);
      else expect(packed, file).toContain(`dist/${file}`);
    }
    const manifest = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@kodo/'))).toEqual([]);
    // …and the bundle loads none at run time.
    for (const file of built.filter((path) => /\.(c|m)?js$/.test(path))) {
      const text = readFileSync(join(cliDir, 'dist', file), 'utf8');
      expect(/require\(["']@kodo\/|from ["']@kodo\//.test(text), file).toBe(false);
    }
  });

  it('declares every package the bundle loads from node_modules at run time', () => {
    const manifest = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const declared = new Set(Object.keys(manifest.dependencies ?? {}));
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    // Ink imports React DevTools only when DEV=true; that require is caught.
    const optional = new Set(['react-devtools-core']);
    const loaded = new Set<string>();
    const code = filesUnder(join(cliDir, 'dist')).filter((path) => /\.(c|m)?js$/.test(path));
    for (const file of code) {
      const text = readFileSync(join(cliDir, 'dist', file), 'utf8');
      // require("x"), import("x"), the chunks' __kodoImport("x") and static `from"x"`; code that
      // libraries only generate as text (Ajv's `require("ajv/dist/runtime/…")`) sits inside
      // template literals or quotes and is skipped by requiring the call not to follow a quote.
      for (const match of text.matchAll(
        /(?<![`'"\w$.])(?:require|import|__kodoImport)\(\s*["']([^"'.][^"']*)["']\s*\)|\bfrom\s*["']([^"'.][^"']*)["']/g,
      )) {
        const specifier = (match[1] ?? match[2])!;
        if (builtins.has(specifier) || specifier.startsWith('node:') || !PACKAGE_SPECIFIER.test(specifier))
          continue;
        const name = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : specifier.split('/')[0]!;
        if (!optional.has(name)) loaded.add(name);
      }
    }
    expect([...loaded].filter((name) => !declared.has(name))).toEqual([]);
    // The ripgrep binary comes from its per-platform package, which @vscode/ripgrep installs.
    expect(declared).toContain('@vscode/ripgrep');
  });
});
