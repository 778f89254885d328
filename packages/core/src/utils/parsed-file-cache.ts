import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { changedAtNs, type DiscoveryFs, isRacyChange, nodeDiscoveryFs, pathStamp } from './discovery-fs';
import { readTextIfExists } from './fs-read';
import { isRecord } from './is-record';
import { writePrivateFile } from './private-file';

// kodo's one discovery cache. Skill and agent files are read and parsed on every run before the
// first model request, though they rarely change; parsing them (YAML front matter) would load the
// YAML parser. This keeps what parsing a file gave beside the file's stamp (identity, size, mtime,
// ctime) and the text it was parsed from. It only spares the parse: discovery still lists the
// folders and reads every file, and an entry is used only when the text just read is that very
// text, so an entry no file backs (stale, or planted) is never used. It is not configuration:
// extension manifests, MCP servers, hooks and commands are never cached (docs/security.md,
// "Discovery caches are not configuration"). It lives in the user's kodo home and is read only
// while only the user can write it (file and folder owned by the user, not writable by group or
// others).

/** Which file a path names now (device, inode) and which version of it (size, mtime, ctime, in ns). */
export interface FileStamp {
  /** Equal for two paths that reach the same file (symlinks, `..`). */
  identity: string;
  /** The file's pathStamp (discovery-fs.ts): identity and version, as discovery stamps it. */
  version: string;
  /** The later of mtime and ctime, in ns since the epoch. */
  changedNs: bigint;
}

/**
 * The stamp of the regular file at `path` (symlinks followed), from one `stat`; undefined when
 * nothing readable is there or it is not a file. ctime moves on every write and on `utimes`, so
 * a rewrite that keeps the size and mtime still changes the version.
 */
export function fileStamp(path: string, fs: DiscoveryFs = nodeDiscoveryFs): FileStamp | undefined {
  const stats = fs.stat(path);
  if (!stats?.isFile()) return undefined;
  return {
    identity: `${stats.dev}:${stats.ino}`,
    version: pathStamp(stats),
    changedNs: changedAtNs(stats),
  };
}

/** How many files one save keeps at most; the least recently parsed go first. */
const MAX_ENTRIES = 1000;
/** Files longer than this are parsed every run: their copy would make the cache slow to read. */
export const MAX_CACHED_TEXT = 64 * 1024;

interface Entry {
  stamp: string;
  /**
   * The text the value was parsed from. Compared whole, not by a hash: two texts with one hash
   * cannot stand for each other, and V8 compares strings natively where a hash in JavaScript runs
   * interpreted at start-up (1.3 ms for a home with 20 skills and 10 agents, every run).
   */
  text: string;
  value: unknown;
}

/**
 * Whether `path` is owned by this user and writable by no one else: what anyone else can
 * write is not read (a cache is a speed-up, so failing closed costs only the parse).
 */
function onlyUserWrites(path: string): boolean {
  const uid = process.getuid?.();
  try {
    const stats = statSync(path);
    return (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

export interface ParsedFileCacheStats {
  hits: number;
  misses: number;
}

export class ParsedFileCache {
  private dirty = false;
  private readonly counts: ParsedFileCacheStats = { hits: 0, misses: 0 };
  /** The entries this run found current or stored: the only ones a save keeps. */
  private readonly used = new Set<string>();

  private constructor(
    private readonly where: { file: string; key: string } | undefined,
    private readonly entries: Map<string, Entry>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A cache that remembers nothing (runs from source, tests). */
  static disabled(): ParsedFileCache {
    return new ParsedFileCache(undefined, new Map());
  }

  /**
   * The cache stored in `file`, or an empty one when the file is missing, unreadable, damaged,
   * writable by anyone but the user, or written by another build (`key`: parsing may differ
   * between builds).
   */
  static open(file: string, key: string, options: { clock?: () => number } = {}): ParsedFileCache {
    const entries = new Map<string, Entry>();
    const text = onlyUserWrites(file) && onlyUserWrites(dirname(file)) ? readTextIfExists(file) : undefined;
    if (text !== undefined) {
      try {
        const data: unknown = JSON.parse(text);
        if (isRecord(data) && data.key === key && isRecord(data.entries)) {
          for (const [name, entry] of Object.entries(data.entries)) {
            if (
              isRecord(entry) &&
              typeof entry.stamp === 'string' &&
              typeof entry.text === 'string' &&
              'value' in entry
            )
              entries.set(name, { stamp: entry.stamp, text: entry.text, value: entry.value });
          }
        }
      } catch {
        // A damaged cache is an empty one; the next save replaces it.
      }
    }
    return new ParsedFileCache({ file, key }, entries, options.clock);
  }

  /**
   * What was stored for this file under `name` (which must name everything besides the file's
   * text that the parse depended on), if it was parsed from this very `text` (just read from the
   * file) and the file is still the one it was parsed from.
   */
  get(name: string, stamp: FileStamp, text: string): unknown {
    const entry = this.entries.get(name);
    if (entry && entry.stamp === stamp.version && entry.text === text) {
      this.counts.hits += 1;
      this.used.add(name);
      return entry.value;
    }
    this.counts.misses += 1;
    return undefined;
  }

  /**
   * Remembers a parse (a JSON value) of `text`, read from the file as `stamp` describes it; not
   * when the file changed within the racy window (see RACY_WINDOW_NS): it is parsed again next time.
   */
  set(name: string, stamp: FileStamp, text: string, value: unknown): void {
    if (!this.where || isRacyChange(stamp.changedNs, this.clock())) return;
    this.entries.delete(name);
    this.entries.set(name, { stamp: stamp.version, text, value });
    this.used.add(name);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(oldest);
    }
    this.dirty = true;
  }

  stats(): ParsedFileCacheStats {
    return { ...this.counts };
  }

  /**
   * Writes the cache if anything was parsed anew, with only the entries this run used: the file
   * is read on every start, so it holds what the last run needed (the user's files and one
   * project's), not every project ever opened; files deleted since drop out. Written to a file
   * beside it and renamed into place, so a concurrent run reads the old or the new one, never
   * half. Best effort: a read-only home runs without a cache.
   */
  save(): void {
    if (!this.dirty || !this.where) return;
    const { file, key } = this.where;
    const kept = [...this.entries].filter(([name]) => this.used.has(name));
    try {
      writePrivateFile(file, JSON.stringify({ key, entries: Object.fromEntries(kept) }));
      this.dirty = false;
    } catch {
      // Best effort: the next run parses again.
    }
  }
}
