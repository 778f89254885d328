/**
 * `npm pack` of the cli makes a package that installs anywhere (`npm install -g kodo-cli-*.tgz`):
 * the bundle carries the workspace packages inside it, so the tarball must hold every file the
 * bundle loads and name no `@kodo/*` package as a dependency (those are not on the registry).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cliDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

describe('npm pack of the cli', () => {
  it('holds the entry, the bundle and the demo, and depends on nothing from the workspace', () => {
    const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: cliDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
    const packed = new Set(pack!.files.map((file) => file.path));
    for (const needed of ['bin/kodo.cjs', 'dist/kodo.cjs', 'dist/cli.mjs', 'dist/demo/session.jsonl']) {
      expect(packed, needed).toContain(needed);
    }
    // Every file of the built bundle goes into the tarball.
    const built = filesUnder(join(cliDir, 'dist'));
    for (const file of built) expect(packed, file).toContain(`dist/${file}`);
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
});
