// The licence texts of the third-party code the CLI bundle carries, gathered at build time.
//
// esbuild's metafile lists every input file of the bundle; those under node_modules name the
// packages inlined into dist (their licences require their notices to travel with the code).
// Files copied beside the bundle (the shell parser's WebAssembly) add their packages. Each
// package's own licence file is appended to dist's THIRD_PARTY_NOTICES.md; a package without one
// stops the build, so nothing ships without its notice.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Licence texts kodo supplies for packages that declare a licence but ship no file with it,
 * by package name (scripts/licences/<name>/LICENSE).
 */
const SUPPLIED = join(dirname(fileURLToPath(import.meta.url)), 'licences');

/** `…/node_modules/@scope/name/lib/x.js` → `…/node_modules/@scope/name` (the innermost package). */
export function packageDirOf(inputPath) {
  const normalized = inputPath.replaceAll('\\', '/');
  const at = normalized.lastIndexOf('node_modules/');
  if (at === -1) return undefined;
  const rest = normalized.slice(at + 'node_modules/'.length).split('/');
  const length = rest[0]?.startsWith('@') ? 2 : 1;
  if (rest.length <= length) return undefined;
  return `${normalized.slice(0, at)}node_modules/${rest.slice(0, length).join('/')}`;
}

/** The package folders (relative to `workingDir`) whose files the metafiles' outputs hold. */
export function bundledPackageDirs(metafiles) {
  const dirs = new Set();
  for (const metafile of metafiles) {
    for (const output of Object.values(metafile.outputs)) {
      for (const input of Object.keys(output.inputs ?? {})) {
        const dir = packageDirOf(input);
        if (dir) dirs.add(dir);
      }
    }
  }
  return [...dirs].sort();
}

const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

/**
 * Each package's name, version, declared licence and licence text. Throws, naming them all,
 * when a package has no licence file.
 */
export function licencesOf(packageDirs, workingDir) {
  const found = [];
  const missing = [];
  for (const dir of packageDirs) {
    const absolute = join(workingDir, dir);
    const manifest = JSON.parse(readFileSync(join(absolute, 'package.json'), 'utf8'));
    const supplied = join(SUPPLIED, manifest.name);
    const from = licenceFiles(absolute).length > 0 ? absolute : supplied;
    const files = licenceFiles(from);
    if (files.length === 0) {
      missing.push(`${manifest.name} (${dir})`);
      continue;
    }
    found.push({
      name: manifest.name,
      version: manifest.version,
      license: typeof manifest.license === 'string' ? manifest.license : 'see the text',
      ...(from === supplied ? { supplied: true } : {}),
      texts: files.map((file) => ({ file, text: readFileSync(join(from, file), 'utf8').trim() })),
    });
  }
  if (missing.length > 0) {
    throw new Error(
      `These packages are bundled into dist but carry no licence file, so their notice cannot ship: ${missing.join(', ')}. Add the text under scripts/licences/ or stop bundling them.`,
    );
  }
  // One entry per name and version (a package can be found at several paths).
  const unique = new Map(found.map((entry) => [`${entry.name}@${entry.version}`, entry]));
  return [...unique.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
}

/** A folder's licence files, LICENSE first; none when the folder does not exist. */
function licenceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => LICENCE_FILE.test(name))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** LICENSE before NOTICE before COPYING: the licence itself first. */
function rank(name) {
  const lower = name.toLowerCase();
  if (lower.startsWith('licen')) return 0;
  if (lower.startsWith('notice')) return 1;
  return 2;
}

/**
 * The section appended to THIRD_PARTY_NOTICES.md: the list of packages, then each distinct
 * licence text once with the packages it covers (eleven OpenTelemetry packages share one Apache
 * text, word for word).
 */
export function licencesMarkdown(entries) {
  const lines = [
    '',
    '## Bundled packages',
    '',
    'The kodo bundle (`dist/`) includes code from these packages, each under its own licence, whose',
    'text follows.',
    '',
    ...entries.map((entry) => `- ${entry.name} ${entry.version} (${entry.license})`),
  ];
  const byText = new Map();
  for (const entry of entries) {
    const key = entry.texts.map(({ file, text }) => `${file}\0${text}`).join('\0');
    const group = byText.get(key) ?? { texts: entry.texts, packages: [], supplied: false };
    group.packages.push(`${entry.name} ${entry.version}`);
    group.supplied ||= entry.supplied === true;
    byText.set(key, group);
  }
  for (const group of byText.values()) {
    lines.push('', `### ${group.packages.join(', ')}`);
    if (group.supplied) lines.push('', 'The package ships no licence file: this text is supplied by kodo.');
    for (const { file, text } of group.texts) {
      lines.push('', `${file}:`, '', '```', text.replaceAll('```', "'''"), '```');
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Appends the bundled packages' licences to `<dist>/THIRD_PARTY_NOTICES.md` (already copied from
 * the repository's root). `extraPackageDirs`: packages whose files are copied beside the bundle.
 */
export async function writeBundledLicences({ dist, metafiles, extraPackageDirs = [], workingDir }) {
  const dirs = [...new Set([...bundledPackageDirs(metafiles), ...extraPackageDirs])]
    .filter((dir) => existsSync(join(workingDir, dir, 'package.json')))
    .sort();
  const entries = licencesOf(dirs, workingDir);
  await appendFile(join(dist, 'THIRD_PARTY_NOTICES.md'), licencesMarkdown(entries));
  return entries;
}
