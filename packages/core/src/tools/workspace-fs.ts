import { constants, existsSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { fsPromises } from '../utils/fs-async';

/**
 * File access that checks what was actually opened, not the name it was opened by. A path is
 * checked by its real path before a tool uses it; between that check and the open, a directory on
 * the way may be swapped for a symlink (a background command the model started can do that in a
 * loop). So the file tools open first and then ask the kernel where the open descriptor points
 * (`/proc/self/fd/N` on Linux; elsewhere a device/inode comparison with the real path), and refuse
 * a descriptor that leads outside the workspace before reading or writing a byte through it.
 */

/** What decides whether a real (symlink-free) path may be touched: the workspace's roots. */
export interface RealPathCheck {
  containsReal(realPath: string): boolean;
}

/** A path that led outside the workspace between the check and the use. */
export class WorkspaceEscapeError extends Error {
  override readonly name = 'WorkspaceEscapeError';
  readonly code = 'EWORKSPACEESCAPE';
  constructor(path: string, real: string) {
    super(`Path ${path} resolved outside the workspace (to ${real}) while it was being opened; refused.`);
  }
}

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/**
 * Where an open descriptor really points. On Linux the kernel answers; elsewhere the path's real
 * path is checked to be the very file (same device and inode) that was opened.
 */
export async function handleRealPath(handle: FileHandle, openedPath: string): Promise<string> {
  const fs = await fsPromises();
  if (PROC_FD) return fs.readlink(`/proc/self/fd/${handle.fd}`);
  const [real, opened] = await Promise.all([fs.realpath(openedPath), handle.stat()]);
  const named = await fs.stat(real);
  if (named.dev !== opened.dev || named.ino !== opened.ino) throw new WorkspaceEscapeError(openedPath, real);
  return real;
}

/** Opens `path` and checks the descriptor lands inside the workspace; closes it and throws if not. */
export async function openInside(
  path: string,
  flags: string | number,
  check: RealPathCheck,
  mode?: number,
): Promise<FileHandle> {
  const handle = await (await fsPromises()).open(path, flags, mode);
  try {
    const real = await handleRealPath(handle, path);
    if (!check.containsReal(real)) throw new WorkspaceEscapeError(path, real);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** A whole file's bytes, read through a descriptor checked to lie inside the workspace. */
export async function readFileInside(path: string, check: RealPathCheck): Promise<Buffer> {
  const handle = await openInside(path, 'r', check);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The first bytes of a file, through a checked descriptor. */
export async function readHeadInside(path: string, check: RealPathCheck, length = 4096): Promise<Buffer> {
  const handle = await openInside(path, 'r', check);
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * A directory opened and checked, and a way to name entries in it that does not go through the
 * path again: on Linux `/proc/self/fd/N/<name>` resolves through the open directory itself (the
 * equivalent of `openat`/`renameat`), so swapping the directory's path afterwards changes nothing.
 * Elsewhere entries are named under the directory's real path, checked when it was opened.
 */
export interface VerifiedDir {
  readonly realPath: string;
  entry(name: string): string;
  close(): Promise<void>;
}

export async function openVerifiedDir(dir: string, check: RealPathCheck): Promise<VerifiedDir> {
  const handle = await openInside(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0), check);
  const realPath = await handleRealPath(handle, dir);
  const base = PROC_FD ? `/proc/self/fd/${handle.fd}` : realPath;
  return {
    realPath,
    entry: (name) => `${base}/${name}`,
    close: () => handle.close(),
  };
}

/**
 * Removes a file (never following a link at the last component: a link is removed itself) or,
 * with `directory`, an empty directory, through its parent directory opened and checked, so a
 * parent swapped for a symlink cannot lead the removal outside.
 */
export async function removeInside(
  path: string,
  check: RealPathCheck,
  options: { directory?: boolean } = {},
): Promise<void> {
  const parent = await openVerifiedDir(dirname(path), check);
  try {
    const entry = parent.entry(basename(path));
    if (options.directory) await (await fsPromises()).rmdir(entry);
    else await (await fsPromises()).unlink(entry);
  } finally {
    await parent.close();
  }
}
