import { describe, expect, it } from 'vitest';
import { mcpPolicyRules } from '../../src/mcp/policy-rules';
import { createMcpTool } from '../../src/mcp/tool-adapter';
import { PolicyEngine } from '../../src/scheduler/policy/engine';
import type { ApprovalMode } from '../../src/scheduler/policy/policy';
import { Scheduler } from '../../src/scheduler/scheduler';
import { ToolRegistry } from '../../src/tools/registry';
import { rulesFrom } from '../policy/helpers';
import { toolContext } from './helpers';

// The scheduler passes an MCP tool's server and annotations to the policy: rules by `mcpName`
// match servers whose names contain `_` (which parsing `mcp_<server>_<tool>` cannot), and
// `toolAnnotations` rules see the server's hints.
function setup(rules: ReturnType<typeof mcpPolicyRules>, mode: ApprovalMode = 'default') {
  const registry = new ToolRegistry();
  const calls: string[] = [];
  registry.register(
    createMcpTool({
      name: 'mcp_my_server_lookup',
      serverName: 'my_server',
      info: { name: 'lookup', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      backend: {
        callTool: async (name) => {
          calls.push(name);
          return { content: [{ type: 'text', text: 'found' }] };
        },
      },
      schemaTarget: () => 'portable',
    }),
  );
  const policy = new PolicyEngine({ rules });
  const scheduler = new Scheduler({
    registry,
    context: toolContext(),
    policy,
    getApprovalMode: () => mode,
    approvals: { interactive: false },
  });
  const request = { callId: 'c1', name: 'mcp_my_server_lookup', args: {}, promptId: 'p' };
  return { registry, policy, scheduler, request, calls };
}

describe('MCP tools under the policy', () => {
  it('trust: true runs the tool headless; without it the call is refused', async () => {
    const trusted = setup(mcpPolicyRules({ servers: { my_server: { command: 'x', trust: true } } }));
    const [done] = await trusted.scheduler.schedule(
      [trusted.request],
      new AbortController().signal,
      () => {},
    );
    expect(done!.response.status).toBe('success');
    expect(trusted.calls).toEqual(['lookup']);

    const untrusted = setup([]);
    const [refused] = await untrusted.scheduler.schedule(
      [untrusted.request],
      new AbortController().signal,
      () => {},
    );
    expect(refused!.response.status).toBe('error');
    expect(untrusted.calls).toEqual([]);
  });

  it('an mcpName rule from a policy file matches the server; toolAnnotations see its hints', async () => {
    const byServer = setup(
      rulesFrom('[[rule]]\nmcpName = "my_server"\ndecision = "allow"\npriority = 100\n'),
    );
    const [done] = await byServer.scheduler.schedule(
      [byServer.request],
      new AbortController().signal,
      () => {},
    );
    expect(done!.response.status).toBe('success');

    const byHint = setup(
      rulesFrom(
        '[[rule]]\ntoolName = "mcp_*"\ntoolAnnotations = { readOnlyHint = true }\ndecision = "allow"\npriority = 100\n',
      ),
    );
    const [hinted] = await byHint.scheduler.schedule(
      [byHint.request],
      new AbortController().signal,
      () => {},
    );
    expect(hinted!.response.status).toBe('success');
  });

  it('hides a server the settings exclude', () => {
    const excluded = setup(mcpPolicyRules({ servers: {}, mcp: { excluded: ['my_server'] } }), 'yolo');
    const info = { name: 'mcp_my_server_lookup', kind: 'other' as const, serverName: 'my_server' };
    expect(excluded.policy.isToolHidden(info, { mode: 'yolo', interactive: true })).toBe(true);
  });
});
