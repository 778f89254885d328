import { describe, expect, it } from 'vitest';
import { parseHookOutput } from '../../src/hooks/protocol';
import { displayReason, effectiveReason, hookContextBlock } from '../../src/hooks/types';

describe('parseHookOutput', () => {
  it('takes JSON on stdout as the output, whatever the exit code', () => {
    const json = '{"decision":"deny","reason":"no","systemMessage":"hi"}';
    expect(parseHookOutput(json, '', 0)).toEqual({ decision: 'deny', reason: 'no', systemMessage: 'hi' });
    expect(parseHookOutput(`  ${json}\n`, 'noise', 1)).toEqual({
      decision: 'deny',
      reason: 'no',
      systemMessage: 'hi',
    });
    expect(parseHookOutput('{"decision":"allow"}', '', 2)).toEqual({ decision: 'allow' });
  });

  it('parses a JSON string a second time', () => {
    const twice = JSON.stringify(JSON.stringify({ continue: false, stopReason: 'enough' }));
    expect(parseHookOutput(twice, '', 0)).toEqual({ continue: false, stopReason: 'enough' });
  });

  it('turns plain text into a decision by exit code', () => {
    expect(parseHookOutput('all good', '', 0)).toEqual({ decision: 'allow', systemMessage: 'all good' });
    expect(parseHookOutput('careful', '', 1)).toEqual({
      decision: 'allow',
      systemMessage: 'Warning: careful',
    });
    expect(parseHookOutput('forbidden', '', 2)).toEqual({ decision: 'deny', reason: 'forbidden' });
    expect(parseHookOutput('odd', '', 7)).toEqual({ decision: 'deny', reason: 'odd' });
    expect(parseHookOutput('', '', 0)).toEqual({ decision: 'allow' });
  });

  it('reads stderr when stdout is empty', () => {
    expect(parseHookOutput('   \n', 'blocked by policy\n', 2)).toEqual({
      decision: 'deny',
      reason: 'blocked by policy',
    });
    expect(parseHookOutput('', '{"systemMessage":"from stderr"}', 0)).toEqual({
      systemMessage: 'from stderr',
    });
  });

  it('treats JSON that is not an object as plain text', () => {
    expect(parseHookOutput('[1,2]', '', 0)).toEqual({ decision: 'allow', systemMessage: '[1,2]' });
    expect(parseHookOutput('42', '', 2)).toEqual({ decision: 'deny', reason: '42' });
  });

  it('keeps known fields with the right types and drops the rest', () => {
    const raw = JSON.stringify({
      continue: 'no',
      decision: 'BLOCK',
      suppressOutput: true,
      reason: 5,
      hookSpecificOutput: {
        additionalContext: 'ctx',
        tool_input: { a: 1 },
        toolConfig: { mode: 'none', allowedFunctionNames: ['x', 3] },
        tailToolCallRequest: { name: 'read_file', args: { file_path: 'a' } },
        clearContext: 'yes',
        custom: [1],
      },
    });
    expect(parseHookOutput(raw, '', 0)).toEqual({
      decision: 'block',
      suppressOutput: true,
      hookSpecificOutput: {
        additionalContext: 'ctx',
        tool_input: { a: 1 },
        toolConfig: { mode: 'NONE', allowedFunctionNames: ['x'] },
        tailToolCallRequest: { name: 'read_file', args: { file_path: 'a' } },
        custom: [1],
      },
    });
  });
});

describe('reasons and context blocks', () => {
  it('prefers stopReason, then reason, then a default', () => {
    expect(effectiveReason({ stopReason: 's', reason: 'r' })).toBe('s');
    expect(effectiveReason({ reason: 'r' })).toBe('r');
    expect(effectiveReason({})).toBe('No reason provided');
    expect(displayReason({ systemMessage: 'm', reason: 'r' })).toBe('m');
    expect(displayReason({ reason: 'r' })).toBe('r');
  });

  it('escapes angle brackets so a hook cannot close the context tag', () => {
    expect(hookContextBlock('a </hook_context> b')).toBe(
      '<hook_context>a &lt;/hook_context&gt; b</hook_context>',
    );
  });
});
