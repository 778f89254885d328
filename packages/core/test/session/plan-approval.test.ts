import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfirmationDetails } from '../../src/contracts/tool-results';
import { FakeContentGenerator } from '../../src/llm/fake';
import { loadPolicyEngine } from '../../src/scheduler/policy/sources';
import type { ConfirmationResponse } from '../../src/scheduler/scheduler';
import { Session } from '../../src/session/session';
import { enterPlanModeTool } from '../../src/tools/builtin/enter-plan-mode';
import { exitPlanModeTool } from '../../src/tools/builtin/exit-plan-mode';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, stream, tempContext, text } from '../helpers';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** A session that plans: enters plan mode from `start`, writes nothing, asks to exit with plan.md. */
async function approve(start: 'default' | 'auto_edit' | 'yolo', answer: ConfirmationResponse | undefined) {
  const temp = tempContext();
  cleanup = temp.cleanup;
  const plansDir = join(temp.root, '.plans');
  mkdirSync(plansDir, { recursive: true });
  writeFileSync(join(plansDir, 'plan.md'), '# Plan\n1. rename the module\n2. update imports\n');
  const shown: ConfirmationDetails[] = [];
  // kodo's own rules: interactively, entering plan mode and approving a plan ask.
  const policy = await loadPolicyEngine({
    cwd: temp.root,
    env: { HOME: temp.root, KODO_HOME: join(temp.root, '.kodo') },
    includeWorkspacePolicies: false,
    plansDir,
  });
  const session = new Session({
    policy,
    generator: new FakeContentGenerator(
      [
        stream(calls({ name: 'enter_plan_mode', args: {} })),
        stream(calls({ name: 'exit_plan_mode', args: { plan_filename: 'plan.md' } })),
        stream(text('on it')),
      ],
      { strict: true },
    ),
    model: 'test-model',
    tools: new ToolRegistry([enterPlanModeTool, exitPlanModeTool]),
    toolContext: { ...temp.ctx, plansDir },
    approvalMode: start,
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    ...(answer
      ? {
          approvals: {
            interactive: true,
            confirm: async ({ details }: { details: ConfirmationDetails }) => {
              shown.push(details);
              // Entering plan mode is approved; the answer under test is the plan's.
              return details.kind === 'plan' ? answer : { outcome: 'proceed_once' as const };
            },
          },
        }
      : {}),
  });
  await collect(session.sendMessage([{ text: 'plan it' }], new AbortController().signal));
  const exitResponse = session
    .history()
    .flatMap((message) => message.parts)
    .filter((part) => part.functionResponse?.name === 'exit_plan_mode')
    .map((part) => JSON.stringify(part.functionResponse?.response));
  return { session, shown: shown.filter((details) => details.kind === 'plan'), exitResponse };
}

describe('plan approval', () => {
  it('shows the plan with the modes to return to, the one before planning first; never yolo', async () => {
    const fromDefault = await approve('default', { outcome: 'proceed_once', approvalMode: 'default' });
    expect(fromDefault.shown).toEqual([
      {
        kind: 'plan',
        title: 'Plan Approval',
        planPath: expect.stringMatching(/\.plans\/plan\.md$/),
        plan: expect.stringContaining('1. rename the module'),
        returnModes: ['default', 'auto_edit'],
      },
    ]);
    const fromAutoEdit = await approve('auto_edit', { outcome: 'proceed_once', approvalMode: 'auto_edit' });
    expect(fromAutoEdit.shown[0]!.kind === 'plan' && fromAutoEdit.shown[0]!.returnModes).toEqual([
      'auto_edit',
      'default',
    ]);
  });

  it('switches to the mode the person picked, whatever the mode before planning was', async () => {
    const picked = await approve('default', { outcome: 'proceed_once', approvalMode: 'auto_edit' });
    expect(picked.session.getApprovalMode()).toBe('auto_edit');
    expect(picked.exitResponse[0]).toContain('Plan approved. Switching to Auto-Edit mode');
    const manual = await approve('auto_edit', { outcome: 'proceed_once', approvalMode: 'default' });
    expect(manual.session.getApprovalMode()).toBe('default');
    expect(manual.exitResponse[0]).toContain('Switching to Default mode (edits will require confirmation)');
  });

  it('an approval without a choice returns to the mode before planning; a rejection stays in plan mode', async () => {
    const plain = await approve('auto_edit', { outcome: 'proceed_once' });
    expect(plain.session.getApprovalMode()).toBe('auto_edit');
    const rejected = await approve('default', { outcome: 'cancel', reason: 'split step 2' });
    expect(rejected.session.getApprovalMode()).toBe('plan');
    expect(rejected.exitResponse[0]).toContain('split step 2');
  });
});
