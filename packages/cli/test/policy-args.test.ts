import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/shared/args';

describe('policy flags', () => {
  it('collects --policy and --admin-policy, repeated or as comma lists', () => {
    const args = parseCliArgs([
      '--policy',
      'a.toml, dir/',
      '--policy=b.toml',
      '--admin-policy',
      '/etc/kodo/admin.toml',
      '-p',
      'x',
    ]);
    expect(args.policyPaths).toEqual(['a.toml', 'dir/', 'b.toml']);
    expect(args.adminPolicyPaths).toEqual(['/etc/kodo/admin.toml']);
  });

  it('leaves them out when absent, and accepts --approval-mode plan', () => {
    const args = parseCliArgs(['--approval-mode', 'plan', '-p', 'x']);
    expect(args.policyPaths).toBeUndefined();
    expect(args.adminPolicyPaths).toBeUndefined();
    expect(args.approvalMode).toBe('plan');
  });
});
