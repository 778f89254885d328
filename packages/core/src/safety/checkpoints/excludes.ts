import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the shadow repository leaves out, written to its `info/exclude`. The project's own
 * `.gitignore` files apply by themselves (they are part of the work tree); this adds what no
 * project wants snapshotted, the root `.kodoignore` / `.geminiignore`, and the files kodo found
 * too large to copy on every checkpoint.
 */

/** Dependency trees, caches and build output that are recreated, never authored. */
export const DEFAULT_EXCLUDES: readonly string[] = [
  '.git/',
  'node_modules/',
  '.pnpm-store/',
  '.yarn/cache/',
  'bower_components/',
  '.venv/',
  'venv/',
  '__pycache__/',
  '.mypy_cache/',
  '.pytest_cache/',
  '.tox/',
  '.gradle/',
  '.next/',
  '.nuxt/',
  '.turbo/',
  '.parcel-cache/',
  '.cache/',
  '.DS_Store',
];

const IGNORE_FILES = ['.kodoignore', '.geminiignore'];
const LARGE_HEADER = '# kodo: files over the size limit';

export function excludeFileText(workspaceRoot: string, largeFiles: Iterable<string>): string {
  const lines = ['# Written by kodo; regenerated before every checkpoint.', ...DEFAULT_EXCLUDES];
  for (const name of IGNORE_FILES) {
    let text: string;
    try {
      text = readFileSync(join(workspaceRoot, name), 'utf8');
    } catch {
      continue;
    }
    lines.push(`# from ${name}`, ...text.split(/\r?\n/).filter((line) => line.trim() !== ''));
  }
  lines.push(LARGE_HEADER, ...[...largeFiles].sort().map(anchoredPattern));
  return `${lines.join('\n')}\n`;
}

/** The large files listed in an exclude file written by `excludeFileText`. */
export function largeFilesIn(text: string): string[] {
  const start = text.indexOf(`${LARGE_HEADER}\n`);
  if (start < 0) return [];
  return text
    .slice(start + LARGE_HEADER.length + 1)
    .split('\n')
    .filter((line) => line !== '')
    .map(unescapePattern);
}

/** A pattern matching exactly one path from the root: special characters escaped. */
export function anchoredPattern(path: string): string {
  const escaped = path.replace(/[\\*?[\]!#]/g, (char) => `\\${char}`).replace(/ $/, '\\ ');
  return `/${escaped}`;
}

function unescapePattern(pattern: string): string {
  return pattern.replace(/^\//, '').replace(/\\(.)/g, '$1');
}
