import type { FileDiff } from '../../contracts/tool-results';
import { diffStat, unifiedDiff } from '../diff';
import type { Workspace } from '../workspace';
import type { PlannedFile } from './plan';

/**
 * How a planned patch is shown: a unified diff per file for the person (the approval dialog and
 * the result), each file's before and after for front ends that draw diffs (ACP), and for the
 * model one line per file saying what happened to it.
 */

/** Every file's diff, one after another (a move names both paths; a binary deletion has none). */
export function patchDiff(files: readonly PlannedFile[], workspace: Workspace): string {
  return files
    .map((file) => {
      const from = shown(file.source ?? file.target!, workspace);
      if (file.binary) return `Binary file ${from} deleted\n`;
      const to = file.target !== undefined ? shown(file.target, workspace) : from;
      return unifiedDiff(from, file.oldText, file.newText, to);
    })
    .join('');
}

export function fileDiffs(files: readonly PlannedFile[]): FileDiff[] {
  return files.map((file) => ({
    path: file.target ?? file.source!,
    oldText: file.source !== undefined ? file.oldText : null,
    newText: file.newText,
  }));
}

export function totalDiffStat(files: readonly PlannedFile[]): { linesAdded: number; linesRemoved: number } {
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const file of files) {
    const stat = diffStat(file.oldText, file.newText);
    linesAdded += stat.linesAdded;
    linesRemoved += stat.linesRemoved;
  }
  return { linesAdded, linesRemoved };
}

/** `A new.ts`, `M app.ts`, `D old.txt`, `M a.ts -> b.ts`, with line counts and matching notes. */
export function patchSummary(files: readonly PlannedFile[], workspace: Workspace): string {
  const lines = files.map((file) => {
    const letter = file.source === undefined ? 'A' : file.target === undefined ? 'D' : 'M';
    const from = shown(file.source ?? file.target!, workspace);
    const path =
      file.target !== undefined && file.source !== undefined && file.target !== file.source
        ? `${from} -> ${shown(file.target, workspace)}`
        : from;
    const { linesAdded, linesRemoved } = diffStat(file.oldText, file.newText);
    const details = [
      ...(linesAdded > 0 || linesRemoved > 0 ? [`+${linesAdded} -${linesRemoved}`] : []),
      ...(file.binary ? ['binary'] : []),
      ...file.notes,
    ];
    return `${letter} ${path}${details.length > 0 ? ` (${details.join('; ')})` : ''}`;
  });
  return `Success. Updated the following files:\n${lines.join('\n')}`;
}

/** One line naming the files, for the call's title. */
export function patchTitle(paths: readonly string[]): string {
  if (paths.length <= 3) return paths.join(', ');
  return `${paths.slice(0, 2).join(', ')} and ${paths.length - 2} more`;
}

function shown(abs: string, workspace: Workspace): string {
  return workspace.display(abs);
}
