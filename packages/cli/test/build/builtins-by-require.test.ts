/**
 * The bundle reaches Node's built-ins through `require` (scripts/builtins-by-require.mjs): an ES
 * `import` of a built-in makes Node build a facade that reads every export when the chunk links
 * (`fs.ReadStream` loads the stream classes), on the way to the first request.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types
import { builtinsByRequire } from '../../../../scripts/builtins-by-require.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, loader: 'js', resolveDir: root },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    plugins: [builtinsByRequire()],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('built-ins by require', () => {
  it('keeps only the exports the code uses, read from the required module', async () => {
    const text = await bundle(
      "import { readFileSync } from 'node:fs';\nimport path, { join } from 'path';\nconsole.log(readFileSync, join, path.sep);",
    );
    expect(text).toContain('__require("node:fs")');
    expect(text).toContain('__require("node:path")');
    expect(text).toContain('pick("readFileSync")');
    // No other export of fs is read: its lazy getters (streams, promises) stay untouched.
    expect(text).not.toMatch(/pick\d*\("(ReadStream|promises|createReadStream)"\)/);
    expect(text).not.toMatch(/from\s*"(node:)?(fs|path)"/);
  });

  it('leaves a dynamic import of a built-in alone', async () => {
    const text = await bundle("export const load = () => import('node:crypto');");
    expect(text).toContain('import("node:crypto")');
    expect(text).not.toContain('__require("node:crypto")');
  });

  it('runs: the bundle imports no built-in with an ES import', () => {
    const dist = join(root, 'packages', 'cli', 'dist');
    const files = [
      join(dist, 'cli.mjs'),
      ...readdirSync(join(dist, 'chunks'))
        .filter((name) => name.endsWith('.mjs'))
        .map((name) => join(dist, 'chunks', name)),
    ];
    expect(files.length).toBeGreaterThan(20);
    const staticBuiltinImport = /(?:^|[;}\s])import\s*(?:[\w${}\s,*]+from\s*)?["']node:[\w/]+["']/m;
    const offenders = files.filter((file) => staticBuiltinImport.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
