// The files `npm pack` and `npm publish` add to the cli package (its prepack script; postpack
// removes them again): the repository's README, shown on the registry's page, and an
// npm-shrinkwrap.json written from the workspace's package-lock.json.
//
// Why the shrinkwrap: the published package then installs exactly the dependency versions its tests ran with
// (npm honours a package's shrinkwrap on install, global installs included), and an install
// from the local npm cache needs no registry at all (`npm install -g kodo-*.tgz --offline`):
// with the shrinkwrap's resolved URLs and integrity hashes npm never asks for package metadata.
// Only the cli's own `dependencies` and what they pull in are written; the bundle carries the rest.

import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = join(root, 'packages/cli');
const shrinkwrapFile = join(cliDir, 'npm-shrinkwrap.json');
const readmeFile = join(cliDir, 'README.md');

/**
 * The lock entries a package at `from` (a lock path) reaches for `name`: its own node_modules,
 * then each parent's, as Node resolves.
 */
function locate(lock, from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent === -1 ? '' : dir.slice(0, parent);
  }
}

function tarballUrl(name, version) {
  return `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz`;
}

export function cliShrinkwrap() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8'));
  const packages = {};
  const pending = Object.keys(manifest.dependencies ?? {}).map((name) => ({ from: 'packages/cli', name }));
  while (pending.length > 0) {
    const { from, name } = pending.pop();
    const found = locate(lock, from, name);
    if (!found) {
      // An optional dependency npm did not lock (another platform's) is skipped by npm too.
      const parent = lock.packages[from];
      if (parent?.optionalDependencies?.[name]) continue;
      throw new Error(`${name} (needed by ${from}) is not in package-lock.json: run npm install`);
    }
    // Paths inside the workspace package become paths inside the installed package.
    const target = found.startsWith('packages/cli/') ? found.slice('packages/cli/'.length) : found;
    if (packages[target]) continue;
    const { dev, devOptional, peer, ...entry } = lock.packages[found];
    const packageName = target.slice(target.lastIndexOf('node_modules/') + 'node_modules/'.length);
    // The workspace lock omits where each tarball lives; the registry's layout names it (npm
    // swaps in the configured registry for registry.npmjs.org).
    packages[target] = { version: entry.version, resolved: tarballUrl(packageName, entry.version), ...entry };
    for (const dependency of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      pending.push({ from: found, name: dependency });
    }
  }
  const { name, version, license, bin, engines, dependencies } = manifest;
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b)));
  return {
    name,
    version,
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name, version, license, dependencies, bin, engines }, ...sorted },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const command = process.argv[2];
  if (command === 'write') {
    writeFileSync(shrinkwrapFile, `${JSON.stringify(cliShrinkwrap(), null, 2)}\n`);
    copyFileSync(join(root, 'README.md'), readmeFile);
  } else if (command === 'remove') {
    rmSync(shrinkwrapFile, { force: true });
    rmSync(readmeFile, { force: true });
  } else throw new Error(`usage: cli-pack-files.mjs write|remove (got ${command})`);
}
