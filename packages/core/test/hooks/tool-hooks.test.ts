import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../src/contracts/messages';
import type { HooksSettings } from '../../src/hooks/types';
import { FakeContentGenerator } from '../../src/llm/fake';
import type { ConfirmHandler } from '../../src/scheduler/scheduler';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, ofType, stream, tempContext, testTools, text } from '../helpers';
import { answer, logInput, makeHooks, readInputs } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(
  settings: HooksSettings,
  script: GenerateResponse[][],
  options: { approvalMode?: 'yolo' | 'default'; confirm?: ConfirmHandler } = {},
) {
  const { ctx, root, cleanup } = tempContext();
  cleanups.push(cleanup);
  const test = makeHooks(settings, { dir: root });
  const log: string[] = [];
  const session = new Session({
    generator: new FakeContentGenerator(
      script.map((chunks) => stream(...chunks)),
      { strict: true },
    ),
    model: 'test-model',
    tools: new ToolRegistry(testTools(log)),
    toolContext: ctx,
    approvalMode: options.approvalMode ?? 'yolo',
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    hooks: test.hooks,
    approvals: options.confirm ? { interactive: true, confirm: options.confirm } : { interactive: false },
  });
  return { session, log, dir: root, hooks: test.hooks };
}

const run = (session: Session) => collect(session.sendMessage('go', new AbortController().signal));
const hook = (command: string, matcher?: string) => [
  { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command' as const, command }] },
];
/** The function responses the model received for the first tool turn. */
const responses = (session: Session): Record<string, unknown>[] =>
  session
    .history()[2]!
    .parts.map((part) => ({ name: part.functionResponse?.name, ...part.functionResponse?.response }));

describe('BeforeTool in the scheduler', () => {
  it('blocks a call before policy: the model reads why, the tool never runs', async () => {
    const { session, log, dir } = setup(
      {
        BeforeTool: hook(
          logInput('in.jsonl', answer({ decision: 'deny', reason: 'no edits on Fridays' })),
          'edit_.*',
        ),
      },
      [
        [calls({ name: 'edit_thing', args: { value: 'a' } }, { name: 'echo', args: { value: 'b' } })],
        [text('ok')],
      ],
    );
    const { events } = await run(session);
    expect(log).toEqual(['start:b', 'end:b']);
    expect(responses(session)).toEqual([
      { name: 'edit_thing', error: 'Tool execution blocked: no edits on Fridays' },
      { name: 'echo', output: 'echo b' },
    ]);
    const error = ofType(events, 'tool_call_response')[0]!.response.error;
    expect(error).toEqual({
      type: 'policy_violation',
      message: 'Tool execution blocked: no edits on Fridays',
    });
    expect(readInputs(dir, 'in.jsonl')).toMatchObject([
      { tool_name: 'edit_thing', tool_input: { value: 'a' } },
    ]);
  });

  it('rewrites arguments (re-validated) and tells the model', async () => {
    const { session, log } = setup(
      { BeforeTool: hook(answer({ hookSpecificOutput: { tool_input: { value: 'safe' } } })) },
      [[calls({ name: 'edit_thing', args: { value: 'rm -rf' } })], [text('ok')]],
    );
    await run(session);
    expect(log).toEqual(['edit:safe']);
    expect(responses(session)).toEqual([
      {
        name: 'edit_thing',
        output: 'edited safe\n\n[System] Tool input parameters were modified by a hook before execution.',
      },
    ]);
  });

  it('refuses rewritten arguments that fail validation', async () => {
    const { session, log } = setup(
      { BeforeTool: hook(answer({ hookSpecificOutput: { tool_input: { value: 42 } } })) },
      [[calls({ name: 'edit_thing', args: { value: 'x' } })], [text('ok')]],
    );
    await run(session);
    expect(log).toEqual([]);
    expect(responses(session)[0]!.error).toMatch(
      /^Tool parameter modification by hook failed validation: params\/value/,
    );
  });

  it('continue:false stops the session after recording the responses', async () => {
    const { session, log } = setup(
      { BeforeTool: hook(answer({ continue: false, stopReason: 'Quota reached' })) },
      [[calls({ name: 'echo', args: { value: 'x' } })]],
    );
    const { events, result } = await run(session);
    expect(result).toEqual({ kind: 'halted_by_hook', reason: 'Quota reached', text: '' });
    expect(log).toEqual([]);
    expect(ofType(events, 'agent_execution_stopped')).toEqual([
      { type: 'agent_execution_stopped', reason: 'Quota reached' },
    ]);
    expect(ofType(events, 'tool_call_response')[0]!.response.error).toEqual({
      type: 'stop_execution',
      message: 'Agent execution stopped by hook: Quota reached',
    });
    expect(responses(session)).toEqual([
      { name: 'echo', error: 'Agent execution stopped by hook: Quota reached' },
    ]);
  });

  it('ask forces a confirmation even where the policy allows, and fires Notification', async () => {
    const asked: string[] = [];
    const { session, log, dir, hooks } = setup(
      { BeforeTool: hook(answer({ decision: 'ask' })), Notification: hook(logInput('n.jsonl')) },
      [[calls({ name: 'echo', args: { value: 'x' } })], [text('ok')]],
      {
        confirm: async ({ call }) => {
          asked.push(call.name);
          return { outcome: 'proceed_once' };
        },
      },
    );
    await run(session);
    await hooks.settle();
    expect(asked).toEqual(['echo']);
    expect(log).toEqual(['start:x', 'end:x']);
    expect(readInputs(dir, 'n.jsonl')).toMatchObject([
      {
        notification_type: 'ToolPermission',
        message: 'kodo needs your permission to use Echo',
        details: { tool_name: 'echo' },
      },
    ]);
  });

  it('ask without anyone to ask is refused (headless)', async () => {
    const { session, log } = setup({ BeforeTool: hook(answer({ decision: 'ask' })) }, [
      [calls({ name: 'echo', args: { value: 'x' } })],
      [text('ok')],
    ]);
    await run(session);
    expect(log).toEqual([]);
    expect(responses(session)[0]!.error).toContain('requires user confirmation');
  });
});

describe('AfterTool in the scheduler', () => {
  it('appends added context to the result, escaped', async () => {
    const { session, dir } = setup(
      {
        AfterTool: hook(
          logInput('in.jsonl', answer({ hookSpecificOutput: { additionalContext: 'lint: 0 <errors>' } })),
        ),
      },
      [[calls({ name: 'echo', args: { value: 'x' } })], [text('ok')]],
    );
    await run(session);
    expect(responses(session)[0]!.output).toBe(
      'echo x\n\n<hook_context>lint: 0 &lt;errors&gt;</hook_context>',
    );
    expect(readInputs(dir, 'in.jsonl')[0]).toMatchObject({
      tool_name: 'echo',
      tool_input: { value: 'x' },
      tool_response: { llmContent: 'echo x', returnDisplay: 'x' },
    });
  });

  it('deny hides the result: the model gets the reason as an error', async () => {
    const { session, log } = setup({ AfterTool: hook('echo "output contains a secret" >&2; exit 2') }, [
      [calls({ name: 'echo', args: { value: 'x' } })],
      [text('ok')],
    ]);
    const { events } = await run(session);
    expect(log).toEqual(['start:x', 'end:x']);
    expect(responses(session)).toEqual([{ name: 'echo', error: 'output contains a secret' }]);
    expect(ofType(events, 'tool_call_response')[0]!.response.resultDisplay).toBe(
      'Tool result blocked: output contains a secret',
    );
  });

  it('a tail call replaces the finished call, same id, answered under the original name', async () => {
    const tail = `cat >> in.jsonl; if grep -q '"tool_name":"echo"' <(tail -n1 in.jsonl); then ${answer({
      hookSpecificOutput: { tailToolCallRequest: { name: 'edit_thing', args: { value: 'follow-up' } } },
    })}; fi`;
    const { session, log, dir } = setup({ AfterTool: hook(tail) }, [
      [calls({ name: 'echo', args: { value: 'x' }, id: 'call-1' })],
      [text('ok')],
    ]);
    const { events } = await run(session);
    expect(log).toEqual(['start:x', 'end:x', 'edit:follow-up']);
    expect(responses(session)).toEqual([{ name: 'echo', output: 'edited follow-up' }]);
    expect(session.history()[2]!.parts[0]!.functionResponse?.id).toBe('call-1');
    const finished = ofType(events, 'tool_call_response');
    expect(finished).toHaveLength(1);
    expect(finished[0]!.response).toMatchObject({ callId: 'call-1', name: 'echo', status: 'success' });
    expect(
      readInputs(dir, 'in.jsonl').map((input) => [input.tool_name, input.original_request_name]),
    ).toEqual([
      ['echo', undefined],
      ['edit_thing', 'echo'],
    ]);
  });

  it('stops tail calls that never end', async () => {
    const forever = answer({
      hookSpecificOutput: { tailToolCallRequest: { name: 'echo', args: { value: 'again' } } },
    });
    const { session, log } = setup({ AfterTool: hook(forever) }, [
      [calls({ name: 'echo', args: { value: 'x' } })],
      [text('ok')],
    ]);
    await run(session);
    expect(log.filter((entry) => entry.startsWith('end:'))).toHaveLength(6);
    expect(responses(session)[0]!.error).toContain('more than 5 tail calls');
  });
});
