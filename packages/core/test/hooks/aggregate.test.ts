import { describe, expect, it } from 'vitest';
import { aggregateOutputs } from '../../src/hooks/aggregate';

describe('aggregateOutputs', () => {
  it('returns nothing without outputs', () => {
    expect(aggregateOutputs('BeforeTool', [])).toBeUndefined();
  });

  it('gate events: a block wins, texts join, flags OR, other keys later-wins', () => {
    const merged = aggregateOutputs('BeforeTool', [
      {
        decision: 'allow',
        reason: 'first',
        systemMessage: 'one',
        hookSpecificOutput: { additionalContext: 'A', x: 1 },
      },
      { decision: 'deny', reason: 'second', suppressOutput: true, hookSpecificOutput: { x: 2 } },
      {
        decision: 'block',
        continue: false,
        stopReason: 'stop',
        hookSpecificOutput: { additionalContext: 'B' },
      },
      { decision: 'ask', systemMessage: 'two', hookSpecificOutput: { clearContext: true } },
    ]);
    expect(merged).toEqual({
      decision: 'block',
      continue: false,
      stopReason: 'stop',
      reason: 'first\nsecond',
      systemMessage: 'one\ntwo',
      suppressOutput: true,
      hookSpecificOutput: { x: 2, clearContext: true, additionalContext: 'A\nB' },
    });
  });

  it('gate events: ask beats allow, allow when nobody objects', () => {
    expect(
      aggregateOutputs('AfterTool', [{ decision: 'allow' }, { decision: 'ask' }, { decision: 'approve' }])
        ?.decision,
    ).toBe('ask');
    expect(aggregateOutputs('BeforeAgent', [{ decision: 'approve' }, {}])?.decision).toBe('allow');
    expect(aggregateOutputs('SessionStart', [{}, { systemMessage: 's' }])).toEqual({ systemMessage: 's' });
  });

  it('model events: later outputs override field by field', () => {
    expect(
      aggregateOutputs('BeforeModel', [
        { decision: 'deny', reason: 'r1', hookSpecificOutput: { llm_request: { model: 'a' }, keep: 1 } },
        { decision: 'allow', hookSpecificOutput: { llm_request: { model: 'b' } } },
      ]),
    ).toEqual({
      decision: 'allow',
      reason: 'r1',
      hookSpecificOutput: { llm_request: { model: 'b' }, keep: 1 },
    });
  });

  it('tool selection: NONE wins, else ANY, else AUTO, names are the sorted union', () => {
    const config = (outputs: Parameters<typeof aggregateOutputs>[1]) =>
      aggregateOutputs('BeforeToolSelection', outputs)?.hookSpecificOutput?.toolConfig;
    expect(
      config([
        {
          hookSpecificOutput: { toolConfig: { mode: 'AUTO', allowedFunctionNames: ['write_file', 'glob'] } },
        },
        { hookSpecificOutput: { toolConfig: { mode: 'ANY', allowedFunctionNames: ['glob', 'read_file'] } } },
      ]),
    ).toEqual({ mode: 'ANY', allowedFunctionNames: ['glob', 'read_file', 'write_file'] });
    expect(
      config([
        { hookSpecificOutput: { toolConfig: { mode: 'ANY', allowedFunctionNames: ['glob'] } } },
        { hookSpecificOutput: { toolConfig: { mode: 'NONE' } } },
      ]),
    ).toEqual({ mode: 'NONE', allowedFunctionNames: [] });
    expect(config([{ hookSpecificOutput: { toolConfig: { allowedFunctionNames: ['b', 'a'] } } }])).toEqual({
      mode: 'AUTO',
      allowedFunctionNames: ['a', 'b'],
    });
    // Decisions and messages do not apply to tool selection.
    expect(aggregateOutputs('BeforeToolSelection', [{ decision: 'deny', systemMessage: 'x' }])).toEqual({});
  });

  it('advisory events: simple later-wins merge', () => {
    expect(
      aggregateOutputs('Notification', [
        { systemMessage: 'a' },
        { systemMessage: 'b', suppressOutput: true },
      ]),
    ).toEqual({
      systemMessage: 'b',
      suppressOutput: true,
    });
  });
});
