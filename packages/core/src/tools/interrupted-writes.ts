import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fsPromises } from '../utils/fs-async';

/**
 * Temp files of atomic writes that never finished. An atomic write puts its bytes in a temp file
 * next to the target (the rename that publishes them must stay on one file system) named
 * `.<name>.<pid>-<unique>.kodo-tmp`. If kodo is killed midway that file stays behind, so each
 * write first leaves a note naming it in `<project temp dir>/pending-writes/`, and removes the
 * note when it is done. At the next start, notes left by processes that are no longer running
 * lead to their temp files, which are deleted. Only names with the temp pattern are ever deleted.
 */

export const TEMP_SUFFIX = '.kodo-tmp';
const NOTES = 'pending-writes';
/**
 * Tells this process's notes from those of an earlier one that had the same pid (containers
 * often start every run with the same pid).
 */
const RUN_TOKEN = Math.random().toString(36).slice(2, 10);

/** Records that `tempPath` is being written by this process; returns the note to forget. */
export async function notePendingWrite(pendingDir: string, tempPath: string): Promise<string | undefined> {
  const dir = join(pendingDir, NOTES);
  const note = join(dir, `${process.pid}-${RUN_TOKEN}-${basename(tempPath)}`);
  try {
    const { mkdir, writeFile } = await fsPromises();
    await mkdir(dir, { recursive: true });
    await writeFile(note, tempPath);
    return note;
  } catch {
    // The note only helps a later cleanup; the write itself must not fail for want of it.
    return undefined;
  }
}

export async function forgetPendingWrite(note: string): Promise<void> {
  const { unlink } = await fsPromises();
  await unlink(note).catch(() => undefined);
}

/**
 * Deletes the temp files of writes whose process died, and their notes. Returns the temp files
 * removed. Never throws: a start-up chore must not stop kodo.
 */
export async function cleanupInterruptedWrites(pendingDir: string): Promise<string[]> {
  const dir = join(pendingDir, NOTES);
  // Checked synchronously first: almost every start has no notes, and a failed async readdir
  // costs a thread-pool round trip on the way to the first request.
  if (!existsSync(dir)) return [];
  const { readdir, readFile, unlink } = await fsPromises();
  let notes: string[];
  try {
    notes = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const note of notes) {
    const [pidText, token] = note.split('-', 2);
    const pid = Number(pidText);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (pid === process.pid ? token === RUN_TOKEN : isRunning(pid)) continue;
    const notePath = join(dir, note);
    const temp = await readFile(notePath, 'utf8').catch(() => undefined);
    if (temp !== undefined && isTempName(basename(temp))) {
      const gone = await unlink(temp).then(
        () => true,
        () => false,
      );
      if (gone) removed.push(temp);
    }
    await unlink(notePath).catch(() => undefined);
  }
  return removed;
}

function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith(TEMP_SUFFIX);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
