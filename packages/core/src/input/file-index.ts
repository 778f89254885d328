import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Entries listed at most (a huge tree must not stall completion). */
const MAX_ENTRIES = 50_000;
/** A listing is reused for this long before it is read again. */
const FRESH_MS = 30_000;
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);
const PROJECT_IGNORE_FILES = ['.kodoignore', '.geminiignore'];

/**
 * The workspace's files and directories (directories end with `/`), relative to the workspace,
 * for `@path` completion. Ignore files are respected: in a git repository `git ls-files` lists
 * tracked and untracked-but-not-ignored files (git's own rules, nested `.gitignore` files and
 * global excludes included); elsewhere the tree is walked, reading each directory's
 * `.gitignore`. `.kodoignore`/`.geminiignore` in the workspace root apply in both cases.
 */
export class FileIndex {
  private cached: { at: number; entries: Promise<string[]> } | undefined;

  constructor(private readonly cwd: string) {}

  entries(): Promise<string[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > FRESH_MS) {
      this.cached = { at: now, entries: this.list().catch(() => []) };
    }
    return this.cached.entries;
  }

  private async list(): Promise<string[]> {
    const projectRules = await loadRules(this.cwd, PROJECT_IGNORE_FILES);
    const files = (await gitListFiles(this.cwd)) ?? (await walk(this.cwd));
    const kept = files.filter(
      (file) =>
        !file.split('/').some((segment) => ALWAYS_SKIPPED.has(segment)) && !projectRules?.ignores(file),
    );
    return withDirectories(kept).slice(0, MAX_ENTRIES);
  }
}

function gitListFiles(cwd: string): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 5_000, windowsHide: true },
      (error, stdout) => {
        if (error) {
          resolve(undefined);
          return;
        }
        resolve(
          stdout
            .split('\0')
            .filter((file) => file !== '')
            .slice(0, MAX_ENTRIES),
        );
      },
    );
  });
}

async function walk(root: string): Promise<string[]> {
  const files: string[] = [];
  const queue: { dir: string; rules: { base: string; rules: Ignore }[] }[] = [{ dir: root, rules: [] }];
  while (queue.length > 0 && files.length < MAX_ENTRIES) {
    const { dir, rules: inherited } = queue.shift()!;
    const own = await loadRules(dir, ['.gitignore']);
    const rules = own ? [...inherited, { base: dir, rules: own }] : inherited;
    let names: import('node:fs').Dirent[];
    try {
      names = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of names) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const absolute = join(dir, entry.name);
      const isDirectory = entry.isDirectory();
      if (
        rules.some(({ base, rules: set }) =>
          set.ignores(toPosix(relative(base, absolute)) + (isDirectory ? '/' : '')),
        )
      ) {
        continue;
      }
      if (isDirectory) queue.push({ dir: absolute, rules });
      else files.push(toPosix(relative(root, absolute)));
    }
  }
  return files;
}

async function loadRules(dir: string, names: string[]): Promise<Ignore | undefined> {
  let found: Ignore | undefined;
  for (const name of names) {
    try {
      const text = await readFile(join(dir, name), 'utf8');
      found ??= ignore();
      found.add(text);
    } catch {
      // No such file.
    }
  }
  return found;
}

/** Adds each file's parent directories (with a trailing `/`), sorted, without duplicates. */
function withDirectories(files: string[]): string[] {
  const all = new Set<string>();
  for (const file of files) {
    let dir = posix.dirname(file);
    while (dir !== '.' && dir !== '/' && !all.has(`${dir}/`)) {
      all.add(`${dir}/`);
      dir = posix.dirname(dir);
    }
    all.add(file);
  }
  return [...all].sort();
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
