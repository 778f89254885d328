/**
 * The concepts session.ts delegates to, each on its own: the change feed (a conversation change
 * is recorded before anyone hears of it), prompt ids (one counter), forking (the parent's record
 * and id never go with the fork) and the approval mode (decided against the lock-down).
 */
import { describe, expect, it } from 'vitest';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import { ApprovalModeError } from '../../src/session/approval-mode-gate';
import { ApprovalModeState } from '../../src/session/approval-mode-state';
import { ChangeFeed } from '../../src/session/change-feed';
import { forkOptions } from '../../src/session/fork';
import { PromptIds } from '../../src/session/prompt-ids';
import type { TurnRecorder } from '../../src/session/recorder';
import type { SessionChange, SessionOptions } from '../../src/session/session-types';
import { ToolRegistry } from '../../src/tools/registry';
import { tempContext } from '../helpers';

const modelChange: SessionChange = { type: 'model_changed', from: 'a', to: 'b' };

describe('the change feed', () => {
  it('records a conversation change before listeners hear it; an announcement alone is not recorded', () => {
    const log: string[] = [];
    const feed = new ChangeFeed(() => log.push('recorded'));
    const unsubscribe = feed.subscribe((change) => log.push(`heard ${change.type}`));
    feed.changed(modelChange);
    feed.announce({ type: 'approval_mode_changed', from: 'default', to: 'plan', source: 'keys' });
    unsubscribe();
    feed.changed(modelChange);
    expect(log).toEqual(['recorded', 'heard model_changed', 'heard approval_mode_changed', 'recorded']);
  });
});

describe('prompt ids', () => {
  it('count up under the session id, as Gemini CLI forms them', () => {
    const ids = new PromptIds('s1');
    expect([ids.next(), ids.next()]).toEqual(['s1########1', 's1########2']);
  });
});

describe('fork options', () => {
  it('take the parent’s options and state now, never its record or id', () => {
    const recorder = { record: () => undefined } as unknown as TurnRecorder;
    const parent: SessionOptions = {
      generator: {} as ContentGenerator,
      model: 'old',
      tools: new ToolRegistry([]),
      toolContext: tempContext().ctx,
      sessionId: 'parent',
      recorder,
      maxTurnsPerPrompt: 7,
    };
    const history = [{ role: 'user' as const, parts: [{ text: 'hi' }] }];
    const forked = forkOptions(
      parent,
      { model: 'new', approvalMode: 'plan', history, stats: {} as never, todos: [] },
      {},
    );
    expect(forked.sessionId).toBeUndefined();
    expect(forked.recorder).toBeUndefined();
    expect(forked).toMatchObject({ model: 'new', approvalMode: 'plan', history, maxTurnsPerPrompt: 7 });
    expect(
      forkOptions(
        parent,
        { model: 'm', approvalMode: 'default', history: [], stats: {} as never, todos: [] },
        { sessionId: 'child' },
      ).sessionId,
    ).toBe('child');
  });
});

describe('the approval-mode state', () => {
  it('refuses a locked first mode at the start, and announces only real changes', () => {
    expect(
      () =>
        new ApprovalModeState(
          { mode: 'yolo', source: 'flag' },
          { yoloRefusedBy: 'security.disableYoloMode' },
          () => undefined,
        ),
    ).toThrow(ApprovalModeError);
    const heard: SessionChange[] = [];
    const state = new ApprovalModeState({ mode: 'default', source: 'sdk' }, {}, (change) =>
      heard.push(change),
    );
    state.set('default', 'keys');
    expect(state.set('plan', 'tool')).toEqual({ ok: true, mode: 'plan' });
    expect(state.get()).toBe('plan');
    expect(heard).toEqual([{ type: 'approval_mode_changed', from: 'default', to: 'plan', source: 'tool' }]);
  });
});
