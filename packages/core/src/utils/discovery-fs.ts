import {
  type BigIntStats,
  type Dirent,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';

// Discovery of what users bring (extensions, commands, skills, agents) reads many small files
// and folders on every start, only through a DiscoveryFs (tests give it fakes). Every run reads
// them: the one cache (parsed-file-cache.ts) spares only the parsing of files it reads.

/** The reads discovery makes. Each behaves as the node:fs call it names. */
export interface DiscoveryFs {
  /** `statSync(path, {bigint})`, symlinks followed; undefined when nothing readable is there. */
  stat(path: string): BigIntStats | undefined;
  existsSync(path: string): boolean;
  /** `readFileSync(path, 'utf8')`: throws as it does. */
  readText(path: string): string;
  /** `readdirSync(dir, {withFileTypes: true})`: throws as it does. */
  list(dir: string): Dirent[];
  /**
   * Every file and folder below `dir` as a relative path, as Node 20's `readdirSync(dir,
   * {recursive: true})` gives them: symlinked folders followed, though each folder only once
   * (a link back up does not loop). Throws when a folder cannot be listed.
   */
  listTree(dir: string): string[];
  /** `realpathSync.native(path)`: undefined when the path does not resolve. */
  realpath(path: string): string | undefined;
}

function statOrUndefined(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false, bigint: true });
  } catch {
    // ENOTDIR, EACCES…: nothing kodo can read either.
    return undefined;
  }
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    // The libc realpath: Node's JavaScript one walks every component with an lstat and runs
    // interpreted at start-up (discovery's 26 calls in a home with 20 skills: 1.1–1.45 ms, against
    // 0.35–0.6 ms; docs/performance.md, session 13). The same answer on Linux and macOS.
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

function listTree(fs: DiscoveryFs, root: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (dir: string, prefix: string) => {
    const stats = fs.stat(dir);
    const identity = stats ? `${stats.dev}:${stats.ino}` : dir;
    if (seen.has(identity)) return;
    seen.add(identity);
    for (const entry of fs.list(dir)) {
      const relative = prefix === '' ? entry.name : join(prefix, entry.name);
      out.push(relative);
      const path = join(dir, entry.name);
      if (entry.isDirectory() || (entry.isSymbolicLink() && fs.stat(path)?.isDirectory()))
        visit(path, relative);
    }
  };
  visit(root, '');
  return out;
}

/** The plain file system. */
export const nodeDiscoveryFs: DiscoveryFs = {
  stat: statOrUndefined,
  existsSync,
  readText: (path) => readFileSync(path, 'utf8'),
  list: (dir) => readdirSync(dir, { withFileTypes: true }),
  listTree: (dir) => listTree(nodeDiscoveryFs, dir),
  realpath: realpathOrUndefined,
};

/**
 * How recent a change may be and still share a timestamp tick with a later one: file times come
 * from a clock that advances in ticks (a jiffy, or 2 s on FAT), so a same-size edit within one
 * tick of a read keeps the stamp the read saw. A cache keeps nothing read from a file changed
 * this recently (git's index treats such entries as "racy" for the same reason).
 */
export const RACY_WINDOW_NS = 2_000_000_000n;

/** Whether a change at `changedNs` (ns since the epoch) is within the racy window of `nowMs`. */
export function isRacyChange(changedNs: bigint, nowMs: number): boolean {
  return changedNs > BigInt(Math.floor(nowMs)) * 1_000_000n - RACY_WINDOW_NS;
}

/** When a file last changed: the later of its mtime and ctime, in ns since the epoch. */
export function changedAtNs(stats: BigIntStats): bigint {
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
  return stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs;
}

/** What a path held: `-` nothing (or nothing readable), else its type, identity and version. */
export function pathStamp(stats: BigIntStats | undefined): string {
  if (!stats) return '-';
  const type = stats.isFile() ? 'f' : stats.isDirectory() ? 'd' : 'o';
  return `${type}:${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}
