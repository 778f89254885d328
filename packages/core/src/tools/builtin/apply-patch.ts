import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import type { FileToolContext } from '../file-change';
import { writeErrorType } from '../file-text';
import { commitPatch, type PatchFileSystem, workspaceFileSystem } from '../patch/commit';
import { APPLY_PATCH_GRAMMAR } from '../patch/grammar';
import { operationLabel, parsePatch } from '../patch/parse';
import { inOperation, operationPaths, type PatchPlan, planPatch } from '../patch/plan';
import { fileDiffs, patchDiff, patchSummary, patchTitle, totalDiffStat } from '../patch/report';
import { failure, failureFrom } from '../results';
import type { ConfirmationDetails, Tool, ToolContextFor, ToolError, ToolResult } from '../tool';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['workspace', 'textFiles'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

/**
 * `apply_patch`: the edit tool of OpenAI's models, which are trained on its format. A freeform
 * tool: the model writes the patch as text constrained by the grammar (patch/grammar.ts), and the
 * call's arguments are `{input}`. It adds, deletes, updates and moves files, all of them or none:
 * the whole patch is parsed and planned (patch/plan.ts) before the approval prompt and again
 * before anything is written, then written with every step undone if one fails (patch/commit.ts).
 * It goes through the same pipeline as `replace` and `write_file`: workspace confinement of every
 * path, each file's encoding and line endings kept, checkpoints (kind `edit`), a diff to approve.
 */

const parameters = z.object({
  input: z.string().describe('The whole patch, from "*** Begin Patch" to "*** End Patch".'),
});

type Params = z.infer<typeof parameters>;

const DESCRIPTION = `Edits files with a patch: adds, deletes, updates and renames files in one call, all of them or none. Write the patch itself as the tool's input, not JSON. Format:

*** Begin Patch
*** Add File: <path>
+each line of the new file, after a "+"
*** Delete File: <path>
*** Update File: <path>
*** Move to: <new path>   (optional: renames the file)
@@ <a line of the file, such as the enclosing function or class>   (optional)
 an unchanged line (a space first)
-a line to remove
+a line to add
*** End of File   (optional: the hunk above ends the file)
*** End Patch

Each change is a hunk: about three unchanged lines above and below it, copied exactly from the file, with "-" before removed lines and "+" before added ones. Hunks of one file go in file order; start each later hunk with "@@" (with a line of the file when the context alone could match more than one place). Paths are relative to the working directory. The user may be asked to approve the change.`;

/** `io` replaces the real file system (tests make one of its steps fail). */
export function createApplyPatchTool(options: { io?: (ctx: FileToolContext) => PatchFileSystem } = {}): Tool {
  const io = options.io ?? workspaceFileSystem;
  return defineTool({
    name: 'apply_patch',
    uses: USES,
    displayName: 'ApplyPatch',
    kind: 'edit',
    description: DESCRIPTION,
    parameters,
    freeform: { syntax: 'lark', definition: APPLY_PATCH_GRAMMAR },
    validate: validatePatch,
    describe: (params, ctx) => patchTitle(targets(params, ctx).map((abs) => ctx.workspace.display(abs))),
    locations: targets,
    async confirmationDetails(params, ctx): Promise<ConfirmationDetails | undefined> {
      const plan = await planned(params, ctx);
      // A patch that cannot be applied gets the generic prompt; running it reports why.
      if (!plan.ok) return undefined;
      const [first] = plan.files;
      const diffs = fileDiffs(plan.files);
      return {
        kind: 'edit',
        title: `Confirm Patch: ${patchTitle(plan.files.map((file) => ctx.workspace.display(file.target ?? file.source!)))}`,
        filePath: first!.target ?? first!.source!,
        diff: patchDiff(plan.files, ctx.workspace),
        newContent: diffs[0]!.newText,
        oldContent: diffs[0]!.oldText,
        ...(plan.files.length > 1 ? { files: diffs } : {}),
      };
    },
    async execute(params, ctx): Promise<ToolResult> {
      const plan = await planned(params, ctx);
      if (!plan.ok) return failureFrom(plan.error);
      const outcome = await commitPatch(plan.files, io(ctx));
      if (!outcome.ok) {
        const file = outcome.failed;
        const restored =
          outcome.unrestored.length === 0
            ? 'Every file it had changed before was put back; no file was changed.'
            : `Putting back the files changed before it failed for: ${outcome.unrestored.join(', ')}.`;
        return failure(
          writeErrorType(outcome.error),
          `Patch not applied: ${operationLabel(file.operation)} failed: ${errorMessage(outcome.error)}. ${restored}`,
        );
      }
      const diffs = fileDiffs(plan.files);
      return {
        llmContent: patchSummary(plan.files, ctx.workspace),
        returnDisplay: patchDiff(plan.files, ctx.workspace),
        diffStat: totalDiffStat(plan.files),
        ...(diffs.length === 1 ? { fileDiff: diffs[0]! } : {}),
      };
    },
  });
}

export const applyPatchTool = createApplyPatchTool();

/** Every path the patch writes or removes, absolute: each file and each move's destination. */
function targets(params: Params, ctx: Ctx): string[] {
  const parsed = parsePatch(params.input);
  if (!parsed.ok) return [];
  return parsed.operations.flatMap(operationPaths).map((path) => ctx.workspace.absolute(path));
}

/** A malformed patch, or a path outside the workspace, is refused before anyone is asked. */
function validatePatch(params: Params, ctx: Ctx): ToolError | undefined {
  const parsed = parsePatch(params.input);
  if (!parsed.ok) return { type: 'invalid_tool_params', message: parsed.message };
  for (const operation of parsed.operations) {
    for (const path of operationPaths(operation)) {
      const resolved = ctx.workspace.resolvePath(path);
      if (!resolved.ok) return inOperation(operation, resolved.error);
    }
  }
  return undefined;
}

async function planned(params: Params, ctx: Ctx): Promise<PatchPlan> {
  const parsed = parsePatch(params.input);
  if (!parsed.ok) return { ok: false, error: { type: 'invalid_tool_params', message: parsed.message } };
  return planPatch(parsed.operations, ctx);
}
