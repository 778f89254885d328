import { constants } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fsPromises } from '../utils/fs-async';
import { forgetPendingWrite, notePendingWrite, TEMP_SUFFIX } from './interrupted-writes';
import { openVerifiedDir, type RealPathCheck, type VerifiedDir } from './workspace-fs';

/** The file-system calls an atomic write makes; tests pass a copy with one call made to fail. */
export type AtomicWriteFs = Pick<
  typeof import('node:fs/promises'),
  'access' | 'open' | 'rename' | 'unlink' | 'stat' | 'lstat' | 'readlink' | 'chown'
>;

export interface AtomicWriteOptions {
  fs?: AtomicWriteFs;
  /**
   * The workspace: the target's directory is opened and checked to lie inside before anything is
   * written, and the temp file and the rename go through that open directory, so a directory
   * swapped for a symlink mid-write cannot send the bytes elsewhere (see `workspace-fs.ts`).
   */
  inside?: RealPathCheck;
  /**
   * Where a note of each temp file in flight is kept (the project temp dir), so that the temp
   * file of a write that was killed midway is removed at the next start (`interrupted-writes.ts`).
   */
  pendingDir?: string;
}

/** Symlink hops followed before giving up (the same bound the kernel uses). */
const MAX_LINK_HOPS = 40;

/**
 * Replaces a file's content so that readers (and a crash) see either the old bytes or the new
 * ones, never a mix: the data goes to a temp file in the same directory (same file system, so the
 * rename cannot degrade to a copy), is flushed to disk, and is renamed over the target. An
 * existing file keeps its permission bits and, where allowed, its owner. A symlink is written
 * through (its target is replaced), as a plain write would. On any error the temp file is removed
 * and the target is untouched. (A hard-linked file gets a new inode: its other names keep the
 * old content.)
 */
export async function atomicWriteFile(path: string, data: Uint8Array, options: AtomicWriteOptions = {}) {
  // Loaded on first use: the write tools share a chunk with what the first request needs.
  const fs = options.fs ?? (await fsPromises());
  const target = await followSymlinks(fs, path);
  const dir: VerifiedDir | undefined = options.inside
    ? await openVerifiedDir(dirname(target), options.inside)
    : undefined;
  try {
    const name = basename(target);
    const at = (entry: string) => (dir ? dir.entry(entry) : join(dirname(target), entry));
    await writeThrough(
      fs,
      { target: at(name), data, temp: at(`.${name}.${uniqueSuffix()}${TEMP_SUFFIX}`) },
      {
        ...(options.pendingDir ? { pendingDir: options.pendingDir } : {}),
        shownTemp: join(dir?.realPath ?? dirname(target), `.${name}`),
      },
    );
  } finally {
    await dir?.close();
  }
}

async function writeThrough(
  fs: AtomicWriteFs,
  paths: { target: string; temp: string; data: Uint8Array },
  journal: { pendingDir?: string; shownTemp: string },
): Promise<void> {
  const { target, temp, data } = paths;
  const existing = await fs.stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  // A rename would replace a read-only file that a plain write could not touch: refuse it the same.
  if (existing) await fs.access(target, constants.W_OK);
  // The note names the temp file by its real path: `/proc/self/fd/…` means nothing to a later run.
  const note = journal.pendingDir
    ? await notePendingWrite(journal.pendingDir, join(dirname(journal.shownTemp), basename(temp)))
    : undefined;
  try {
    // `wx`: never reuse (or follow a link at) a name someone else created.
    const handle = await fs.open(temp, 'wx', existing ? existing.mode & 0o7777 : 0o666);
    let renamed = false;
    try {
      try {
        await handle.writeFile(data);
        if (existing) {
          // open()'s mode is filtered by the umask; the old file's bits are restored exactly.
          await handle.chmod(existing.mode & 0o7777);
          await handle.chown(existing.uid, existing.gid).catch(() => undefined);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
      renamed = true;
    } finally {
      if (!renamed) await fs.unlink(temp).catch(() => undefined);
    }
  } finally {
    if (note) await forgetPendingWrite(note);
  }
}

/** The path a write through `path` lands on: symlinks at the last component are followed. */
async function followSymlinks(fs: AtomicWriteFs, path: string): Promise<string> {
  let current = resolve(path);
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    let isLink: boolean;
    try {
      isLink = (await fs.lstat(current)).isSymbolicLink();
    } catch {
      return current; // Missing: the write creates it here.
    }
    if (!isLink) return current;
    current = resolve(dirname(current), await fs.readlink(current));
  }
  return current; // A loop: the open below reports ELOOP.
}

function uniqueSuffix(): string {
  // Not node:crypto: the name only has to be unlikely to collide, and `wx` catches a collision.
  const [seconds, nanos] = process.hrtime();
  return `${process.pid}-${(seconds * 1e9 + nanos).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
