import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/args';

/** `-w/--worktree [name]`: the value is optional, as in Gemini CLI and Claude Code. */
describe('--worktree', () => {
  it('takes the next word as the name, and generates one when bare', () => {
    expect(parseCliArgs(['-w', 'fix-login']).worktree).toBe('fix-login');
    expect(parseCliArgs(['--worktree=fix-login']).worktree).toBe('fix-login');
    expect(parseCliArgs(['-w']).worktree).toBe('');
    expect(parseCliArgs(['--worktree', '-p', 'hi'])).toMatchObject({ worktree: '', prompt: 'hi' });
    expect(parseCliArgs(['-p', 'hi', '-w'])).toMatchObject({ worktree: '', prompt: 'hi' });
    expect(parseCliArgs(['-p', 'hi']).worktree).toBeUndefined();
  });
});
