/**
 * Policy rules that name a subagent (`subagent = "…"`), rules that name a subagent as a tool
 * (`toolName = "<agent>"`, matched against invoke_agent's `agent_name`), and rule fields kodo
 * cannot apply. Attacked as a wrong model would: the refused call is made from inside the
 * subagent the administrator meant, or the agent is started under another spelling of its name.
 */
import { describe, expect, it } from 'vitest';
import type { SubagentDefinition } from '../../src/agent/subagents';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import { PolicyEngine } from '../../src/scheduler/policy/engine';
import { parsePolicyToml } from '../../src/scheduler/policy/toml-rules';
import { Session } from '../../src/session/session';
import { invokeAgentTool } from '../../src/tools/builtin/invoke-agent';
import { ToolRegistry } from '../../src/tools/registry';
import { agent, invoke, routedModel } from '../agent/subagent-helpers';
import { calls, collect, type ofType, tempContext, testTools, text } from '../helpers';
import { call, ctx, rulesFrom, sharedShellParser } from './helpers';

/** `echo` is allowed for everyone at the user tier: only a subagent rule can refuse it. */
const ALLOW_ECHO = `
[[rule]]
toolName = "echo"
decision = "allow"
priority = 100
`;

/** The administrator's rule under attack: no echo inside that agent. */
const denyEchoIn = (agentName: string) =>
  `[[rule]]\nsubagent = "${agentName}"\ntoolName = "echo"\ndecision = "deny"\npriority = 1\n`;

function policySession(generator: ContentGenerator, agents: SubagentDefinition[], admin: string) {
  const { ctx: toolContext } = tempContext();
  const policy = new PolicyEngine({
    rules: [...rulesFrom(ALLOW_ECHO, 'user'), ...rulesFrom(admin, 'admin')],
    loadShellParser: sharedShellParser,
  });
  return new Session({
    generator,
    model: 'parent-model',
    tools: new ToolRegistry([...testTools(), invokeAgentTool]),
    toolContext,
    policy,
    approvalMode: 'default',
    includeEnvironmentContext: false,
    agents,
    agentLimits: { maxDepth: 2 },
    retry: { maxAttempts: 1, streamMaxAttempts: 1 },
  });
}

/** The status and error type of every echo call, by the agent that made it (`main` for the main agent). */
function echoResults(events: Awaited<ReturnType<typeof collect>>['events']) {
  const results: { agent: string; status: string; error?: string }[] = [];
  for (const event of events as Parameters<typeof ofType>[0]) {
    if (event.type === 'tool_call_response' && event.response.name === 'echo') {
      results.push({ agent: 'main', status: event.response.status, error: event.response.error?.type });
    }
    // A grandchild's events arrive nested twice; the innermost agent is the one that called.
    let nested: Parameters<typeof ofType>[0][number] = event;
    let agentName = 'main';
    while (nested.type === 'subagent_event') {
      agentName = nested.agent;
      nested = nested.event;
    }
    if (agentName !== 'main' && nested.type === 'tool_call_response' && nested.response.name === 'echo') {
      results.push({ agent: agentName, status: nested.response.status, error: nested.response.error?.type });
    }
  }
  return results;
}

describe('rules that name a subagent', () => {
  it('an admin deny with subagent = "<name>" refuses that agent\'s calls, and only its calls', async () => {
    const model = routedModel({
      main: [[calls({ name: 'echo', args: { value: 'main' } }, invoke('finder', 'look'))], [text('done')]],
      'You are finder.': [[calls({ name: 'echo', args: { value: 'child' } })], [text('found')]],
    });
    const s = policySession(model.generator, [agent('finder', { tools: ['echo'] })], denyEchoIn('finder'));
    const { events } = await collect(s.sendMessage('go', new AbortController().signal));
    expect(echoResults(events)).toEqual([
      { agent: 'main', status: 'success', error: undefined },
      // The denied tool is not even declared to that agent (below), so its call is answered as
      // Gemini CLI answers a call to an undeclared tool; either way, it never runs.
      { agent: 'finder', status: 'error', error: 'tool_not_registered' },
    ]);
  });

  it('a deny for a subagent also holds inside the agents it starts (stricter, never wider)', async () => {
    const model = routedModel({
      main: [[calls(invoke('outer', 'delegate'))], [text('done')]],
      'You are outer.': [[calls(invoke('inner', 'echo it'))], [text('outer done')]],
      'You are inner.': [[calls({ name: 'echo', args: { value: 'deep' } })], [text('inner done')]],
    });
    const s = policySession(model.generator, [agent('outer'), agent('inner')], denyEchoIn('outer'));
    const { events } = await collect(s.sendMessage('go', new AbortController().signal));
    expect(echoResults(events)).toEqual([{ agent: 'inner', status: 'error', error: 'tool_not_registered' }]);
  });

  it('hides a tool the rule denies outright from that agent only', async () => {
    const model = routedModel({
      main: [[calls(invoke('finder', 'look'))], [text('done')]],
      'You are finder.': [[text('nothing to do')]],
    });
    const s = policySession(model.generator, [agent('finder')], denyEchoIn('finder'));
    await collect(s.sendMessage('go', new AbortController().signal));
    const offered = (speakerName: string) =>
      model.requests.find((entry) => entry.speaker === speakerName)!.request.tools!.map((tool) => tool.name);
    expect(offered('main')).toContain('echo');
    expect(offered('You are finder.')).not.toContain('echo');
  });

  it('toolName = "<agent>" matches invoke_agent for that agent (any case), as Gemini CLI matches it', async () => {
    const engine = new PolicyEngine({
      rules: rulesFrom('[[rule]]\ntoolName = "generalist"\ndecision = "deny"\npriority = 10\n', 'admin'),
    });
    const start = (name: string) => call('invoke_agent', { agent_name: name, prompt: 'x' });
    expect((await engine.check(start('generalist'), ctx('yolo'))).decision).toBe('deny');
    expect((await engine.check(start('Generalist'), ctx('yolo'))).decision).toBe('deny');
    expect((await engine.check(start('codebase_investigator'), ctx('default'))).decision).toBe('allow');
  });

  it('an allow for a subagent allows nothing in the main agent or in another agent', async () => {
    const engine = new PolicyEngine({
      rules: rulesFrom(
        '[[rule]]\nsubagent = "helper"\ntoolName = "write_file"\ndecision = "allow"\npriority = 10\n',
        'user',
      ),
    });
    const write = call('write_file', { file_path: 'a' });
    expect((await engine.check(write, ctx('default', false))).decision).toBe('deny');
    expect((await engine.check(write, { ...ctx('default', false), agentPath: ['other'] })).decision).toBe(
      'deny',
    );
    expect((await engine.check(write, { ...ctx('default', false), agentPath: ['helper'] })).decision).toBe(
      'allow',
    );
    // Inside an agent that helper started, the allow is not helper's to give.
    expect(
      (await engine.check(write, { ...ctx('default', false), agentPath: ['helper', 'other'] })).decision,
    ).toBe('deny');
  });
});

describe('rule fields kodo cannot apply', () => {
  const parse = (text: string) => parsePolicyToml(text, { tier: 'user', file: 'team.toml' });

  it('a deny with an unknown condition applies without it (more broadly), with a warning', async () => {
    const parsed = parse(
      '[[rule]]\ntoolName = "write_file"\ndecision = "deny"\npriority = 10\nonlyOnFridays = true\n',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings).toEqual([
      expect.stringMatching(
        /^\[USER\] Policy file warning in team\.toml: rule #1: kodo does not know the field "onlyOnFridays"; this deny rule applies without it/,
      ),
    ]);
    const engine = new PolicyEngine({ rules: parsed.rules });
    expect((await engine.check(call('write_file', { file_path: 'a' }), ctx('yolo'))).decision).toBe('deny');
  });

  it('an allow with an unknown condition is dropped, with a warning, never allowing more', async () => {
    const parsed = parse(
      '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 10\nrequiredContext = ["git"]\n',
    );
    expect(parsed.rules).toEqual([]);
    expect(parsed.warnings).toEqual([
      expect.stringMatching(
        /rule #1: kodo does not know the field "requiredContext"; this allow rule is dropped/,
      ),
    ]);
  });

  it('a [[safety_checker]] kodo cannot run makes the calls it covers ask, even over an allow and in yolo', async () => {
    const parsed = parse(`
[[rule]]
toolName = "write_file"
decision = "allow"
priority = 500

[[safety_checker]]
toolName = "write_file"
priority = 10
checker = { type = "external", name = "corp-dlp" }
`);
    expect(parsed.warnings).toEqual([
      expect.stringMatching(
        /safety_checker #1: kodo cannot run the checker "corp-dlp"; the calls it covers ask/,
      ),
    ]);
    const engine = new PolicyEngine({ rules: parsed.rules });
    const write = call('write_file', { file_path: 'a' });
    expect((await engine.check(write, ctx('default'))).decision).toBe('ask_user');
    expect((await engine.check(write, ctx('yolo'))).decision).toBe('ask_user');
    expect((await engine.check(write, ctx('yolo', false))).decision).toBe('deny');
    expect((await engine.check(call('read_file', { file_path: 'a' }), ctx('yolo'))).decision).toBe('allow');
  });
});
