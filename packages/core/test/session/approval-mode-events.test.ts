/**
 * Approval-mode changes are session events: whoever switches the mode (the person's keys, a tool
 * such as exit_plan_mode, ACP, the SDK), every front end hears it once, with who asked, and
 * hears nothing for a refused or a no-op switch.
 */
import { describe, expect, it } from 'vitest';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import { Session, type SessionChange } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { tempContext } from '../helpers';

const noModel: ContentGenerator = {
  provider: 'none',
  generateContent: async () => ({}),
  countTokens: async () => ({ totalTokens: 0 }),
  // biome-ignore lint/correctness/useYield: never called.
  async *generateContentStream() {
    throw new Error('not called');
  },
};

function watched(options: Partial<ConstructorParameters<typeof Session>[0]> = {}) {
  const session = new Session({
    generator: noModel,
    model: 'm',
    tools: new ToolRegistry([]),
    toolContext: tempContext().ctx,
    ...options,
  });
  const heard: SessionChange[] = [];
  session.subscribe((change) => heard.push(change));
  return { session, heard };
}

describe('approval-mode changes are announced', () => {
  it('a switch is heard once, with the old mode, the new one and who asked', () => {
    const { session, heard } = watched();
    session.setApprovalMode('auto_edit', { source: 'keys' });
    session.setApprovalMode('plan', { source: 'acp' });
    expect(heard).toEqual([
      { type: 'approval_mode_changed', from: 'default', to: 'auto_edit', source: 'keys' },
      { type: 'approval_mode_changed', from: 'auto_edit', to: 'plan', source: 'acp' },
    ]);
  });

  it('a tool switching the mode (the plan tools) is heard as the tool', () => {
    const { session, heard } = watched({ approvalMode: 'plan' });
    const access = (session as unknown as { toolContext: { approvalMode: { set(mode: string): void } } })
      .toolContext.approvalMode;
    access.set('auto_edit');
    expect(heard).toEqual([{ type: 'approval_mode_changed', from: 'plan', to: 'auto_edit', source: 'tool' }]);
  });

  it('nothing is heard for a switch to the current mode or one the lock-down refuses', () => {
    const { session, heard } = watched({ approvalLockdown: { yoloRefusedBy: 'security.disableYoloMode' } });
    session.setApprovalMode('default', { source: 'keys' });
    expect(session.setApprovalMode('yolo', { source: 'keys' }).ok).toBe(false);
    expect(heard).toEqual([]);
  });
});
