import { existsSync } from 'node:fs';
import { chmod, lstat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { atomicWriteFile } from '../atomic-write';
import type { FileToolContext } from '../file-change';
import { type FileChange, type TextFormat, writeFileChange } from '../file-change';
import { openVerifiedDir, readFileInside, removeInside } from '../workspace-fs';
import type { PlannedFile } from './plan';

/**
 * Writes a planned patch, all or nothing. Each file's write is atomic on its own (atomic-write.ts);
 * across files, every step that succeeded is undone when a later one fails: changed files get
 * their bytes and mode back, created files and the directories made for them go, deleted and
 * moved files come back. Before a file is changed its bytes are kept in memory for that.
 */

/** A file as it was before the patch, to put back. */
export type SavedFile =
  | { abs: string; kind: 'bytes'; bytes: Buffer; mode: number }
  /** A file an editor serves (ACP): its text, put back through the editor. */
  | { abs: string; kind: 'text'; text: string; format: Pick<TextFormat, 'encoding' | 'lineEnding'> };

/** The file-system steps of a patch; tests pass one with a step made to fail midway. */
export interface PatchFileSystem {
  write(change: FileChange): Promise<void>;
  remove(abs: string): Promise<void>;
  save(abs: string): Promise<SavedFile>;
  restore(saved: SavedFile): Promise<void>;
  setMode(abs: string, mode: number): Promise<void>;
  removeEmptyDirectory(abs: string): Promise<void>;
}

export type CommitOutcome =
  | { ok: true }
  /** `unrestored`: files the undo could not put back (each with the reason). */
  | { ok: false; failed: PlannedFile; error: unknown; unrestored: string[] };

export async function commitPatch(
  files: readonly PlannedFile[],
  fs: PatchFileSystem,
): Promise<CommitOutcome> {
  const undo: { abs: string; step: () => Promise<void> }[] = [];
  for (const file of files) {
    try {
      await commitFile(file, fs, undo);
    } catch (error) {
      const unrestored: string[] = [];
      for (const { abs, step } of undo.reverse()) {
        try {
          await step();
        } catch (undoError) {
          unrestored.push(`${abs} (${(undoError as Error).message})`);
        }
      }
      return { ok: false, failed: file, error, unrestored };
    }
  }
  return { ok: true };
}

async function commitFile(
  file: PlannedFile,
  fs: PatchFileSystem,
  undo: { abs: string; step: () => Promise<void> }[],
): Promise<void> {
  const { source, target } = file;
  const saved = source !== undefined ? await fs.save(source) : undefined;
  if (target !== undefined) {
    const isNewFile = target !== source;
    const createdDirs = isNewFile ? missingDirectories(target) : [];
    await fs.write({
      abs: target,
      isNewFile,
      oldText: file.oldText,
      newText: file.newText,
      format: file.format,
    });
    undo.push({
      abs: target,
      step: async () => {
        if (isNewFile) {
          await fs.remove(target);
          for (const dir of createdDirs) await fs.removeEmptyDirectory(dir);
        } else {
          await fs.restore(saved!);
        }
      },
    });
    // A moved file keeps its permission bits (an executable script stays executable).
    if (saved?.kind === 'bytes' && isNewFile) await fs.setMode(target, saved.mode);
  }
  if (source !== undefined && target !== source) {
    await fs.remove(source);
    undo.push({ abs: source, step: () => fs.restore(saved!) });
  }
}

/** The directories a write to `path` would create, deepest first. */
function missingDirectories(path: string): string[] {
  const missing: string[] = [];
  for (let dir = dirname(path); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir))
    missing.push(dir);
  return missing;
}

/** The real steps, confined to the workspace like every other write of the edit tools. */
export function workspaceFileSystem(ctx: FileToolContext): PatchFileSystem {
  const inside = ctx.workspace;
  const pendingDir = ctx.workspace.tempDir;
  return {
    write: (change) => writeFileChange(change, ctx),
    remove: (abs) => removeInside(abs, inside),
    removeEmptyDirectory: (abs) => removeInside(abs, inside, { directory: true }),
    async save(abs) {
      if (ctx.textFiles?.handles(abs)) {
        const existing = await ctx.textFiles.read(abs);
        if (!existing) throw new Error(`${abs} disappeared before it was changed`);
        return { abs, kind: 'text', text: existing.text, format: existing };
      }
      const [bytes, stats] = await Promise.all([readFileInside(abs, inside), lstat(abs)]);
      return { abs, kind: 'bytes', bytes, mode: stats.mode & 0o7777 };
    },
    async restore(saved) {
      if (saved.kind === 'text') {
        await ctx.textFiles!.write(saved.abs, saved.text, saved.format);
        return;
      }
      await atomicWriteFile(saved.abs, saved.bytes, { inside, ...(pendingDir ? { pendingDir } : {}) });
      await setModeInside(saved.abs, saved.mode, ctx);
    },
    setMode: (abs, mode) => setModeInside(abs, mode, ctx),
  };
}

async function setModeInside(abs: string, mode: number, ctx: FileToolContext): Promise<void> {
  const parent = await openVerifiedDir(dirname(abs), ctx.workspace);
  try {
    await chmod(parent.entry(basename(abs)), mode);
  } finally {
    await parent.close();
  }
}
