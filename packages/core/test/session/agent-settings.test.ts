/**
 * Settings `agents.*` from resolveConfig to the Session's subagents (the end-to-end runs are in
 * the CLI's agent-settings.e2e.test.ts): ceilings, depth, and per-agent overrides.
 */
import { describe, expect, it } from 'vitest';
import { subagentDefinitions } from '../../src/agent/subagents';
import { resolveConfig } from '../../src/session/resolve-config';
import { Session } from '../../src/session/session';
import { invokeAgentTool } from '../../src/tools/builtin/invoke-agent';
import { ToolRegistry } from '../../src/tools/registry';
import { agent, invoke, routedModel } from '../agent/subagent-helpers';
import { calls, collect, tempContext, testTools, text } from '../helpers';

const trusted = { trusted: true };

function sessionFrom(settings: Parameters<typeof resolveConfig>[2], model: ReturnType<typeof routedModel>) {
  const { outputThresholdChars: _limit, ...options } = resolveConfig({}, {}, settings, trusted).session;
  return new Session({
    ...options,
    generator: model.generator,
    model: 'parent-model',
    tools: new ToolRegistry([...testTools(), invokeAgentTool]),
    toolContext: tempContext().ctx,
    includeEnvironmentContext: false,
    agents: [agent('finder', { tools: ['echo'], maxTurns: 40, timeoutMs: 60_000 })],
    retry: { maxAttempts: 1, streamMaxAttempts: 1 },
  });
}

describe('agents.* settings', () => {
  it('resolves limits as ceilings and overrides in milliseconds', () => {
    const { session } = resolveConfig(
      {},
      {},
      {
        agents: {
          maxTurns: 3,
          maxTimeMinutes: 2,
          maxDepth: 0,
          overrides: { finder: { enabled: false }, generalist: { model: 'other', maxTimeMinutes: 1 } },
        },
      },
      trusted,
    );
    expect(session.agentLimits).toEqual({ maxDepth: 0, maxTurnsCeiling: 3, timeoutCeilingMs: 120_000 });
    expect(session.agentOverrides).toEqual({
      finder: { enabled: false },
      generalist: { model: 'other', timeoutMs: 60_000 },
    });
    expect(resolveConfig({}, {}, {}, trusted).session.agentLimits).toBeUndefined();
  });

  it("agents.maxTurns stops a child before its own limit; an override turns an agent off and sets another's model", async () => {
    const model = routedModel({
      main: [[calls(invoke('finder', 'look'))], [text('done')]],
      'You are finder.': [
        [calls({ name: 'echo', args: { value: '1' } })],
        [calls({ name: 'echo', args: { value: '2' } })],
      ],
    });
    const s = sessionFrom({ agents: { maxTurns: 1 } }, model);
    await collect(s.sendMessage('go', new AbortController().signal));
    expect(JSON.stringify(s.history()[2])).toContain('Agent reached max turns limit (1).');

    const off = sessionFrom(
      { agents: { overrides: { FINDER: { enabled: false }, generalist: { model: 'small-model' } } } },
      routedModel({}),
    );
    expect(off.listAgents().map((entry) => entry.name)).toEqual(['codebase_investigator', 'generalist']);
    const generalist = subagentDefinitions([], { generalist: { model: 'small-model', maxTurns: 4 } }).find(
      (definition) => definition.name === 'generalist',
    );
    expect(generalist).toMatchObject({ model: 'small-model', maxTurns: 4 });
  });
});
