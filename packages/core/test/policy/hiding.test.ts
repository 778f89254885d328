import { describe, expect, it } from 'vitest';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import { FakeContentGenerator } from '../../src/llm/fake';
import { PolicyEngine } from '../../src/scheduler/policy/engine';
import type { ApprovalMode } from '../../src/scheduler/policy/policy';
import type { ConfirmHandler } from '../../src/scheduler/scheduler';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import type { ToolKind } from '../../src/tools/tool';
import { calls, collect, stream, tempContext, testTools, text } from '../helpers';
import { ctx, engineWith } from './helpers';

const tool = (name: string, kind: ToolKind = 'other') => ({ name, kind });

describe('hiding denied tools', () => {
  it.each<[string, ReturnType<typeof tool>, ApprovalMode, boolean, boolean]>([
    ['read tools stay offered headless', tool('read_file', 'read'), 'default', false, false],
    ['edits are hidden headless in default mode', tool('write_file', 'edit'), 'default', false, true],
    [
      'the shell is hidden headless in default mode',
      tool('run_shell_command', 'execute'),
      'default',
      false,
      true,
    ],
    ['tools without rules are hidden headless', tool('mystery'), 'default', false, true],
    ['nothing that asks is hidden interactively', tool('write_file', 'edit'), 'default', true, false],
    ['edits stay offered in auto_edit', tool('replace', 'edit'), 'auto_edit', false, false],
    ['everything is offered in yolo', tool('mystery'), 'yolo', false, false],
    ['ask_user is hidden headless even in yolo', tool('ask_user', 'communicate'), 'yolo', false, true],
    ['plan mode hides the shell', tool('run_shell_command', 'execute'), 'plan', true, true],
    ['plan mode keeps write_file for plans', tool('write_file', 'edit'), 'plan', false, false],
  ])('%s', (_name, info, mode, interactive, hidden) => {
    expect(engineWith().isToolHidden(info, ctx(mode, interactive))).toBe(hidden);
  });

  it('keeps a tool that an args rule allows, and skips args rules that deny', () => {
    const engine = engineWith({
      user: `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "echo"
decision = "allow"
priority = 10

[[rule]]
toolName = "glob"
argsPattern = "secret"
decision = "deny"
priority = 20
`,
    });
    expect(engine.isToolHidden(tool('run_shell_command', 'execute'), ctx('default', false))).toBe(false);
    expect(engine.isToolHidden(tool('glob', 'search'), ctx('default', false))).toBe(false);
    const denied = engineWith({ user: '[[rule]]\ntoolName = "glob"\ndecision = "deny"\npriority = 1' });
    expect(denied.isToolHidden(tool('glob', 'search'), ctx('yolo', true))).toBe(true);
  });
});

class CapturingGenerator extends FakeContentGenerator {
  readonly requests: GenerateRequest[] = [];
  override generateContentStream(request: GenerateRequest, signal: AbortSignal) {
    this.requests.push(structuredClone(request));
    return super.generateContentStream(request, signal);
  }
}

function sessionWith(script: GenerateResponse[][], policy: PolicyEngine, confirm?: ConfirmHandler) {
  const generator = new CapturingGenerator(
    script.map((chunks) => stream(...chunks)),
    { strict: true },
  );
  const { ctx: toolContext, cleanup } = tempContext();
  const session = new Session({
    generator,
    model: 'test-model',
    tools: new ToolRegistry(testTools()),
    toolContext,
    policy,
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    approvals: confirm ? { interactive: true, confirm } : { interactive: false },
  });
  return { session, generator, cleanup };
}

const declared = (request: GenerateRequest) => (request.tools ?? []).map((declaration) => declaration.name);

describe('Session with a policy engine', () => {
  it('declares only tools that are not denied outright; a call to a hidden one is "not found" to the model (Gemini CLI), how to allow it to the person', async () => {
    const { session, generator, cleanup } = sessionWith(
      [[calls({ name: 'edit_thing', args: { value: 'x' } })], [text('ok')]],
      new PolicyEngine(),
    );
    const { events } = await collect(session.sendMessage('go', new AbortController().signal));
    // Headless default mode: edit_thing, wait_abort (no rule) are hidden; reading tools stay.
    expect(declared(generator.requests[0]!)).toEqual(['echo', 'boom']);
    const response = session.history()[2]!.parts[0]!.functionResponse!.response;
    // The suggestions come only from the tools the model was offered.
    expect(response).toEqual({ error: 'Tool "edit_thing" not found. Did you mean one of: "echo", "boom"?' });
    const shown = events.find((event) => event.type === 'tool_call_response');
    expect(shown?.type === 'tool_call_response' && shown.response.error?.type).toBe('tool_not_registered');
    expect(shown?.type === 'tool_call_response' && shown.response.resultDisplay).toMatch(
      /^Tool "edit_thing" is not allowed in this mode: it needs approval.*--allowed-tools edit_thing/,
    );
    cleanup();
  });

  it('a tool denied outright by a rule: "not found" to the model, the rule to the person', async () => {
    const { session, cleanup } = sessionWith(
      [[calls({ name: 'echo', args: { value: 'x' } })], [text('ok')]],
      engineWith({ user: '[[rule]]\ntoolName = "echo"\ndecision = "deny"\npriority = 1' }),
    );
    const { events } = await collect(session.sendMessage('go', new AbortController().signal));
    const response = session.history()[2]!.parts[0]!.functionResponse!.response;
    expect(response).toEqual({ error: 'Tool "echo" not found. Did you mean "boom"?' });
    const shown = events.find((event) => event.type === 'tool_call_response');
    const display = shown?.type === 'tool_call_response' ? shown.response.resultDisplay : '';
    expect(display).toMatch(/^Tool "echo" is not allowed in this mode: the policy denies every call of it/);
    expect(display).not.toContain('--allowed-tools');
    cleanup();
  });

  it('follows the approval mode when it changes', async () => {
    const { session, generator, cleanup } = sessionWith([[text('a')], [text('b')]], new PolicyEngine());
    await collect(session.sendMessage('one', new AbortController().signal));
    session.setApprovalMode('yolo');
    await collect(session.sendMessage('two', new AbortController().signal));
    expect(declared(generator.requests[0]!)).toEqual(['echo', 'boom']);
    expect(declared(generator.requests[1]!)).toEqual(['echo', 'edit_thing', 'wait_abort', 'boom']);
    cleanup();
  });

  it('offers every tool that may ask when a person can confirm', async () => {
    const confirm: ConfirmHandler = async () => ({ outcome: 'proceed_once' });
    const { session, generator, cleanup } = sessionWith([[text('a')]], new PolicyEngine(), confirm);
    await collect(session.sendMessage('one', new AbortController().signal));
    expect(declared(generator.requests[0]!)).toEqual(['echo', 'edit_thing', 'wait_abort', 'boom']);
    cleanup();
  });
});
