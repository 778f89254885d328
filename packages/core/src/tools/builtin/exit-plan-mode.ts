import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import * as z from 'zod';
import { defineTool } from '../define-tool';
import type { PlanReturnMode, ToolApprovalMode, ToolContextFor, ToolResult } from '../tool';
import { isInside } from '../workspace';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['approvalMode', 'plansDir', 'workspace'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

const parameters = z.object({
  plan_filename: z
    .string()
    .min(1)
    .describe('The plan file in the plans directory, e.g. "plan.md" (not an absolute path outside it).'),
});

const MODE_DESCRIPTIONS: Record<ToolApprovalMode, string> = {
  default: 'Default mode (edits will require confirmation)',
  auto_edit: 'Auto-Edit mode (edits will be applied automatically)',
  yolo: 'YOLO mode (all tool calls auto-approved)',
  plan: 'Plan mode',
};

/**
 * `exit_plan_mode`: presents the plan for approval. The person picks the mode to work in next
 * (accept edits automatically or one by one; the mode before planning is preselected). Without a
 * choice (headless, where the policy allows it, or a front end with only Allow/Reject) it returns
 * to the mode the session was in before planning: never silently to yolo. A rejection's feedback
 * reaches the model and the session stays in plan mode.
 */
export const exitPlanModeTool = defineTool({
  name: 'exit_plan_mode',
  uses: USES,
  displayName: 'Exit Plan Mode',
  kind: 'plan',
  description:
    'Presents the plan you wrote (a Markdown file in the plans directory) for the user to approve. If approved, the session leaves Plan Mode and you implement the plan; if not, you get the feedback and stay in Plan Mode.',
  parameters,
  describe: (params) => params.plan_filename,
  async confirmationDetails(params, ctx) {
    const plan = await readPlan(params.plan_filename, ctx);
    if (!('content' in plan)) return { kind: 'info', title: 'Plan Approval', prompt: plan.error };
    const before = ctx.approvalMode?.beforePlan();
    const returnModes: PlanReturnMode[] =
      before === 'auto_edit' ? ['auto_edit', 'default'] : ['default', 'auto_edit'];
    return { kind: 'plan', title: 'Plan Approval', planPath: plan.path, plan: plan.content, returnModes };
  },
  async execute(params, ctx, options): Promise<ToolResult> {
    const plan = await readPlan(params.plan_filename, ctx);
    if (!('content' in plan)) {
      return {
        llmContent: plan.error,
        returnDisplay: plan.error,
        error: { type: 'invalid_tool_params', message: plan.error },
      };
    }
    const mode = options.approvedMode ?? ctx.approvalMode?.beforePlan() ?? 'default';
    ctx.approvalMode?.set(mode);
    return {
      llmContent: `Plan approved. Switching to ${MODE_DESCRIPTIONS[mode]}.\nThe approved implementation plan is stored at: ${plan.path}\nRead it and follow it step by step.`,
      returnDisplay: `Plan approved: ${MODE_DESCRIPTIONS[mode]}.`,
    };
  },
});

async function readPlan(
  name: string,
  ctx: Ctx,
): Promise<{ path: string; content: string } | { error: string }> {
  const plansDir = ctx.plansDir;
  if (!plansDir) return { error: 'There is no plans directory in this session.' };
  const candidates = isAbsolute(name)
    ? [resolve(name)]
    : [resolve(ctx.workspace.cwd, name), join(plansDir, name)];
  const inside = candidates.filter((candidate) => isInside(plansDir, candidate));
  if (inside.length === 0) {
    return {
      error: `Access denied: plan path (${name}) must be within the designated plans directory (${plansDir}).`,
    };
  }
  for (const path of inside) {
    try {
      if (!(await stat(path)).isFile()) continue;
    } catch {
      continue;
    }
    const content = await readFile(path, 'utf8');
    if (content.trim() === '')
      return {
        error: 'Plan file is empty. You must write content to the plan file before requesting approval.',
      };
    return { path, content };
  }
  return {
    error: `Plan file does not exist: ${name}. You must create the plan file before requesting approval.`,
  };
}
