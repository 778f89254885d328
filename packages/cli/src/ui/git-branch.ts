import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The current git branch (or short commit for a detached HEAD) of the repository containing
 * `cwd`, read from `.git/HEAD` without spawning git. Worktrees and submodules (`.git` is a file
 * pointing elsewhere) are followed. Undefined outside a repository.
 */
export function gitBranch(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const gitPath = join(dir, '.git');
    const head = readHead(gitPath);
    if (head !== undefined) return parseHead(head);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function readHead(gitPath: string): string | undefined {
  try {
    const info = statSync(gitPath);
    if (info.isDirectory()) return readFileSync(join(gitPath, 'HEAD'), 'utf8');
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitPath, 'utf8'))?.[1]?.trim();
    if (!pointer) return undefined;
    return readFileSync(join(resolve(dirname(gitPath), pointer), 'HEAD'), 'utf8');
  } catch {
    return undefined;
  }
}

function parseHead(head: string): string | undefined {
  const ref = /^ref:\s*refs\/heads\/(.+)$/m.exec(head)?.[1];
  if (ref) return ref.trim();
  const sha = head.trim();
  return /^[0-9a-f]{7,}$/i.test(sha) ? sha.slice(0, 7) : undefined;
}
