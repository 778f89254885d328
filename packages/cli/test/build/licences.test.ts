/**
 * The package ships the licence texts of the third-party code bundled into dist: every package
 * whose files esbuild inlined (its metafile) is named with its licence in dist's
 * THIRD_PARTY_NOTICES.md, followed by the text; a bundled package with no licence text stops
 * the build.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without type declarations
import { bundledPackageDirs, licencesOf, packageDirOf } from '../../../../scripts/third-party-licenses.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const notices = () => readFileSync(join(root, 'packages/cli/dist/THIRD_PARTY_NOTICES.md'), 'utf8');

let temp: string | undefined;
afterEach(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = undefined;
});

describe('licences of bundled packages', () => {
  it('names every package the bundle inlines, with its licence and its text', async () => {
    // The bundle's inputs, as the build sees them (no output written).
    const { metafile } = await build({
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['source'],
      // As scripts/build.mjs builds it: React's production build, not its development one.
      define: { 'process.env.NODE_ENV': '"production"', __KODO_VERSION__: '"0"', __KODO_SOURCE_ID__: '"0"' },
      entryPoints: { cli: join(root, 'packages/cli/src/run.ts') },
      outdir: join(tmpdir(), 'kodo-licences-unused'),
      splitting: true,
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'error',
      external: ['react-devtools-core', '@lydell/node-pty'],
      absWorkingDir: root,
    });
    const dirs: string[] = bundledPackageDirs([metafile]);
    expect(dirs.length).toBeGreaterThan(20);
    const text = notices();
    const headings = text.split('\n').filter((line) => line.startsWith('### '));
    for (const dir of [...dirs, 'node_modules/web-tree-sitter', 'node_modules/tree-sitter-bash']) {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
      const named = `${manifest.name} ${manifest.version}`;
      expect(text, dir).toContain(`- ${named} (${manifest.license})`);
      expect(
        headings.some((line) => line.includes(named)),
        `${named} has a licence text`,
      ).toBe(true);
    }
    // A text the package ships, and one kodo supplies where a package ships none.
    expect(text).toContain('Copyright (c) Meta Platforms, Inc. and affiliates.');
    expect(text).toContain('The package ships no licence file: this text is supplied by kodo.');
  });

  it('finds the innermost package of an input path', () => {
    expect(packageDirOf('node_modules/ink/build/index.js')).toBe('node_modules/ink');
    expect(packageDirOf('node_modules/@scope/pkg/lib/a.js')).toBe('node_modules/@scope/pkg');
    expect(packageDirOf('node_modules/wrap-ansi/node_modules/string-width/index.js')).toBe(
      'node_modules/wrap-ansi/node_modules/string-width',
    );
    expect(packageDirOf('packages/core/src/index.ts')).toBeUndefined();
  });

  it('refuses a bundled package with no licence text, naming it', () => {
    temp = mkdtempSync(join(tmpdir(), 'kodo-licences-'));
    const dir = join(temp, 'node_modules', 'no-licence-here');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'no-licence-here', version: '1.0.0' }));
    const licensed = join(temp, 'node_modules', 'fine');
    mkdirSync(licensed, { recursive: true });
    writeFileSync(
      join(licensed, 'package.json'),
      JSON.stringify({ name: 'fine', version: '2.0.0', license: 'MIT' }),
    );
    writeFileSync(join(licensed, 'LICENSE.md'), 'MIT text\n');
    expect(licencesOf(['node_modules/fine'], temp)).toMatchObject([
      { name: 'fine', license: 'MIT', texts: [{ file: 'LICENSE.md', text: 'MIT text' }] },
    ]);
    expect(() => licencesOf(['node_modules/fine', 'node_modules/no-licence-here'], temp)).toThrow(
      /carry no licence file.*no-licence-here/,
    );
  });
});
