import { lstatSync, type Stats } from 'node:fs';
import { encodingProblem, isToolError, readTarget, type TextFormat } from '../file-change';
import type { ExistingText } from '../file-text';
import type { ToolContextFor, ToolError } from '../tool';
import { realpathOfNearestExisting } from '../workspace';
import { applyHunks } from './apply-hunks';
import { operationLabel, type PatchOperation } from './parse';

/**
 * A whole patch worked out before anything is written: every path resolved inside the workspace,
 * every file read, every hunk placed and every new text computed. The first problem stops the
 * plan with an error naming the operation (and the hunk), so a patch that cannot be applied
 * whole changes nothing.
 */

export interface PlannedFile {
  operation: PatchOperation;
  /** The file as it is now (absolute); absent for an added file. */
  source?: string;
  /** Where the new text goes (absolute); absent for a deleted file; not `source` for a move. */
  target?: string;
  /** LF-normalised text before and after ('' for an added or deleted file's missing side). */
  oldText: string;
  newText: string;
  /** How the new text is written: the source's encoding and line endings, or UTF-8 for a new file. */
  format: TextFormat;
  /** A deleted file that is not text: it has no diff to show. */
  binary?: boolean;
  /** Hunks found only by forgiving comparison (locate.ts). */
  notes: string[];
}

export type PatchPlan = { ok: true; files: PlannedFile[] } | { ok: false; error: ToolError };

export async function planPatch(
  operations: readonly PatchOperation[],
  ctx: ToolContextFor<'workspace'>,
): Promise<PatchPlan> {
  const claimed = new Map<string, PatchOperation>();
  const files: PlannedFile[] = [];
  for (const operation of operations) {
    const planned = await planOperation(operation, ctx);
    if (isToolError(planned)) return { ok: false, error: planned };
    for (const path of [planned.source, planned.target]) {
      if (path === undefined) continue;
      const key = realpathOfNearestExisting(path);
      const earlier = claimed.get(key);
      if (earlier && earlier !== operation) {
        const error = refuse(
          'invalid_tool_params',
          operation,
          `${operationLabel(earlier)} already changes ${ctx.workspace.display(path)}: put every change to one file in one section.`,
        );
        return { ok: false, error };
      }
      claimed.set(key, operation);
    }
    files.push(planned);
  }
  return { ok: true, files };
}

async function planOperation(
  operation: PatchOperation,
  ctx: ToolContextFor<'workspace'>,
): Promise<PlannedFile | ToolError> {
  const target = await readTarget(operation.path, ctx, (abs, error) => ({
    type: 'read_content_failure',
    message: `Failed to read ${abs}: ${(error as Error).message}`,
  }));
  if (isToolError(target)) return inOperation(operation, target);
  const { abs, existing, format } = target;
  const stats = lstatOrUndefined(abs);
  switch (operation.kind) {
    case 'add': {
      if (stats) {
        return refuse(
          'attempt_to_create_existing_file',
          operation,
          `${ctx.workspace.display(abs)} already exists; change it with "*** Update File: ", or delete it first.`,
        );
      }
      const newText = operation.lines.length > 0 ? `${operation.lines.join('\n')}\n` : '';
      return checked({ operation, target: abs, oldText: '', newText, format, notes: [] });
    }
    case 'delete': {
      const problem = notARegularFile(stats, abs, ctx) ?? (existing ? undefined : missing(abs, ctx));
      if (problem) return refuse(problem.type, operation, problem.message);
      const binary = existing!.binary;
      return {
        operation,
        source: abs,
        oldText: binary ? '' : existing!.text,
        newText: '',
        format,
        notes: [],
        ...(binary ? { binary } : {}),
      };
    }
    case 'update':
      return planUpdate(operation, ctx, { abs, stats, existing, format });
  }
}

async function planUpdate(
  operation: Extract<PatchOperation, { kind: 'update' }>,
  ctx: ToolContextFor<'workspace'>,
  current: { abs: string; stats: Stats | undefined; existing: ExistingText | undefined; format: TextFormat },
): Promise<PlannedFile | ToolError> {
  const { abs, existing, format } = current;
  if (!existing) {
    return refuse(
      'file_not_found',
      operation,
      `${missing(abs, ctx).message} Create it with "*** Add File: ".`,
    );
  }
  if (existing.binary) {
    return refuse(
      'binary_file',
      operation,
      `${ctx.workspace.display(abs)} is a binary file; a patch cannot change it.`,
    );
  }
  let destination = abs;
  if (operation.moveTo !== undefined) {
    const resolved = ctx.workspace.resolvePath(operation.moveTo);
    if (!resolved.ok) return inOperation(operation, resolved.error);
    destination = resolved.path;
  }
  const moves = realpathOfNearestExisting(destination) !== realpathOfNearestExisting(abs);
  // "Moving" a file to another name of itself (`./a.txt`, a link to it) is no move: one path.
  if (!moves) destination = abs;
  if (moves) {
    // A move renames this file: a link would move the link and leave its target changed or not.
    const problem = notARegularFile(current.stats, abs, ctx);
    if (problem) return refuse(problem.type, operation, `${problem.message} Only regular files are moved.`);
    if (lstatOrUndefined(destination)) {
      return refuse(
        'attempt_to_create_existing_file',
        operation,
        `the destination ${ctx.workspace.display(destination)} already exists; a move never replaces a file.`,
      );
    }
  }
  let newText = existing.text;
  let notes: string[] = [];
  if (operation.hunks.length > 0) {
    const outcome = applyHunks(existing.text, operation.hunks);
    if (!outcome.ok) {
      const hunk = operation.hunks[outcome.hunk - 1]!;
      return {
        type:
          outcome.reason === 'ambiguous' ? 'edit_expected_occurrence_mismatch' : 'edit_no_occurrence_found',
        message: `${NOT_APPLIED}hunk ${outcome.hunk} of ${operationLabel(operation)} (patch line ${hunk.line}): ${outcome.message}`,
      };
    }
    ({ text: newText, notes } = outcome);
  }
  if (!moves && newText === existing.text) {
    return refuse(
      'edit_no_change',
      operation,
      'the hunks leave the file as it is (was the patch applied already?).',
    );
  }
  return checked({
    operation,
    source: abs,
    target: destination,
    oldText: existing.text,
    newText,
    format,
    notes,
  });
}

const NOT_APPLIED = 'Patch not applied (no file was changed): ';

function refuse(type: ToolError['type'], operation: PatchOperation, message: string): ToolError {
  return {
    type,
    message: `${NOT_APPLIED}${operationLabel(operation)} (patch line ${operation.line}): ${message}`,
  };
}

/** An error about one operation of the patch, saying that nothing was changed. */
export function inOperation(operation: PatchOperation, error: ToolError): ToolError {
  return refuse(error.type, operation, error.message);
}

/** The paths an operation names: the file, and for a move its destination. */
export function operationPaths(operation: PatchOperation): string[] {
  return [
    operation.path,
    ...(operation.kind === 'update' && operation.moveTo !== undefined ? [operation.moveTo] : []),
  ];
}

/** Text the file's encoding cannot hold (a one-byte-per-character file) is refused before anything is written. */
function checked(file: PlannedFile): PlannedFile | ToolError {
  if (file.target === undefined) return file;
  const problem = encodingProblem({
    abs: file.target,
    isNewFile: file.source === undefined,
    oldText: file.oldText,
    newText: file.newText,
    format: file.format,
  });
  return problem ? refuse(problem.type, file.operation, problem.message) : file;
}

function notARegularFile(
  stats: Stats | undefined,
  abs: string,
  ctx: ToolContextFor<'workspace'>,
): ToolError | undefined {
  const shown = ctx.workspace.display(abs);
  if (stats?.isSymbolicLink()) {
    return {
      type: 'invalid_tool_params',
      message: `${shown} is a symbolic link; a patch deletes and moves regular files only.`,
    };
  }
  if (stats?.isDirectory())
    return { type: 'target_is_directory', message: `${shown} is a directory, not a file.` };
  return undefined;
}

function missing(abs: string, ctx: ToolContextFor<'workspace'>): ToolError {
  return { type: 'file_not_found', message: `${ctx.workspace.display(abs)} does not exist.` };
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
