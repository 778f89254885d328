import { mkdir } from 'node:fs/promises';
import * as z from 'zod';
import { defineTool } from '../define-tool';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['approvalMode', 'plansDir'] as const;

const parameters = z.object({
  reason: z
    .string()
    .optional()
    .describe('Why planning first is the better way to do this task (one sentence).'),
});

/**
 * `enter_plan_mode`: the model asks to plan before changing anything. In plan mode only reading
 * tools run, and Markdown plans may be written to the plans directory; `exit_plan_mode` presents
 * the plan. Interactive runs ask first; headless runs allow it.
 */
export const enterPlanModeTool = defineTool({
  name: 'enter_plan_mode',
  uses: USES,
  displayName: 'Enter Plan Mode',
  kind: 'plan',
  description:
    'Switches to Plan Mode: only reading and searching tools work, and a plan can be written as a Markdown file in the plans directory. Use it for complex or risky changes, where agreeing on a plan first saves work. Finish with exit_plan_mode to present the plan for approval.',
  parameters,
  describe: (params) => (params.reason ? `Plan mode: ${params.reason}` : 'Plan mode'),
  async confirmationDetails() {
    return {
      kind: 'info',
      title: 'Enter Plan Mode',
      prompt: 'This will restrict the agent to read-only tools to allow for safe planning.',
    };
  },
  async execute(params, ctx) {
    if (!ctx.approvalMode) {
      return {
        llmContent: 'Plan mode is not available in this session.',
        returnDisplay: 'Plan mode is not available.',
        error: { type: 'execution_failed', message: 'Plan mode is not available in this session.' },
      };
    }
    ctx.approvalMode.set('plan');
    if (ctx.plansDir) await mkdir(ctx.plansDir, { recursive: true });
    const where = ctx.plansDir
      ? ` Write the plan as a Markdown file in ${ctx.plansDir}, then call exit_plan_mode with its file name.`
      : '';
    return {
      llmContent: `Switching to Plan mode.${where}`,
      returnDisplay: `Switching to Plan mode${params.reason ? `: ${params.reason}` : ''}`,
    };
  },
});
