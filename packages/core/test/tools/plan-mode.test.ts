import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalModeAccess } from '../../src/session/approval-access';
import { enterPlanModeTool } from '../../src/tools/builtin/enter-plan-mode';
import { exitPlanModeTool } from '../../src/tools/builtin/exit-plan-mode';
import type { Tool, ToolApprovalMode, ToolContext } from '../../src/tools/tool';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());
const signal = new AbortController().signal;

function setup(start: ToolApprovalMode) {
  ws = createTempWorkspace();
  let mode = start;
  const ctx: ToolContext = {
    ...ws.ctx,
    plansDir: `${ws.root}/.tmp/plans`,
    approvalMode: approvalModeAccess({ get: () => mode, set: (next) => (mode = next) }),
  };
  return { ctx, mode: () => mode };
}

async function run(tool: Tool, args: Record<string, unknown>, ctx: ToolContext) {
  const built = tool.build(args, ctx);
  if (!built.ok) throw new Error(built.error.message);
  return built.invocation.execute({ signal });
}

describe('plan mode tools', () => {
  it('enter switches to plan; an approved plan returns to the mode before it, not to yolo', async () => {
    const { ctx, mode } = setup('auto_edit');
    const entered = await run(enterPlanModeTool, { reason: 'big refactor' }, ctx);
    expect(entered.returnDisplay).toBe('Switching to Plan mode: big refactor');
    expect(mode()).toBe('plan');
    ws!.write('.tmp/plans/plan.md', '1. do it');
    const built = exitPlanModeTool.build({ plan_filename: 'plan.md' }, ctx);
    if (!built.ok) throw new Error(built.error.message);
    const details = await built.invocation.confirmationDetails(signal);
    expect(details).toMatchObject({
      kind: 'plan',
      title: 'Plan Approval',
      returnModes: ['auto_edit', 'default'],
    });
    expect(details.kind === 'plan' && details.plan).toContain('1. do it');
    const approved = await built.invocation.execute({ signal });
    expect(approved.llmContent).toContain('Plan approved. Switching to Auto-Edit mode');
    expect(mode()).toBe('auto_edit');
  });

  it('a session that started in plan mode goes to default', async () => {
    const { ctx, mode } = setup('plan');
    ws!.write('.tmp/plans/p.md', 'x');
    await run(exitPlanModeTool, { plan_filename: 'p.md' }, ctx);
    expect(mode()).toBe('default');
  });

  it('refuses plans outside the plans directory, missing and empty plans, and stays in plan mode', async () => {
    const { ctx, mode } = setup('plan');
    ws!.write('outside.md', 'x');
    ws!.write('.tmp/plans/empty.md', '  \n');
    const outside = await run(exitPlanModeTool, { plan_filename: '../../outside.md' }, ctx);
    expect(outside.error?.message).toMatch(/^Access denied: plan path/);
    expect((await run(exitPlanModeTool, { plan_filename: '/etc/passwd' }, ctx)).error?.message).toMatch(
      /^Access denied/,
    );
    expect((await run(exitPlanModeTool, { plan_filename: 'nope.md' }, ctx)).error?.message).toMatch(
      /^Plan file does not exist/,
    );
    expect((await run(exitPlanModeTool, { plan_filename: 'empty.md' }, ctx)).error?.message).toMatch(
      /^Plan file is empty/,
    );
    expect(mode()).toBe('plan');
  });
});
