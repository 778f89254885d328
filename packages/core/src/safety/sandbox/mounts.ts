import { existsSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';
import type { SandboxPolicy } from './types';

/**
 * The mounts of a policy in the order a sandbox must apply them. A deeper path is mounted after
 * its parents, so it wins: the workspace stays writable inside a read-only `/`, kodo's home is
 * hidden even when the workspace is the home directory, and the project temp dir is visible again
 * inside the hidden home. Paths that do not exist are skipped (nothing to bind or hide) and
 * symlinks are resolved, because the kernel mounts on the real path.
 */
export type MountOp = 'tmpfs' | 'ro-bind' | 'bind';

export interface Mount {
  op: MountOp;
  path: string;
}

/** At one path the most permissive mount is applied last: a workspace inside a hidden path stays usable. */
const OP_ORDER: Record<MountOp, number> = { tmpfs: 0, 'ro-bind': 1, bind: 2 };

export function policyMounts(policy: SandboxPolicy): Mount[] {
  const mounts: Mount[] = [];
  const seen = new Set<string>();
  const add = (op: MountOp, paths: string[]) => {
    for (const path of paths) {
      const real = realPath(path);
      if (!real || real === sep) continue;
      const key = `${op}\0${real}`;
      if (seen.has(key)) continue;
      seen.add(key);
      mounts.push({ op, path: real });
    }
  };
  add('tmpfs', policy.hiddenPaths);
  add('ro-bind', policy.readOnlyPaths);
  add('bind', policy.writablePaths);
  return mounts.sort((a, b) => depth(a.path) - depth(b.path) || OP_ORDER[a.op] - OP_ORDER[b.op]);
}

function depth(path: string): number {
  return path.split(sep).filter((part) => part !== '').length;
}

function realPath(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
