import { describe, expect, it } from 'vitest';
import type { ToolCallRequestInfo } from '../../src/contracts/events';
import { FakeContentGenerator } from '../../src/llm/fake';
import type { ConfirmationRequest } from '../../src/scheduler/scheduler';
import { Session } from '../../src/session/session';
import { runUserToolCall, type UserToolCallDeps } from '../../src/session/user-tool-call';
import { lazyBuiltinTools } from '../../src/tools/builtin/declared';
import { ToolRegistry } from '../../src/tools/registry';
import { collect, ofType, tempContext, testTools } from '../helpers';

function makeSession(
  confirm?: (request: ConfirmationRequest) => Promise<{ outcome: 'proceed_once' | 'cancel' }>,
) {
  const log: string[] = [];
  const { ctx, cleanup } = tempContext();
  const session = new Session({
    generator: new FakeContentGenerator([], { strict: true }),
    model: 'test-model',
    tools: new ToolRegistry(testTools(log)),
    toolContext: ctx,
    includeEnvironmentContext: false,
    approvals: confirm ? { interactive: true, confirm } : { interactive: false },
  });
  return { session, log, cleanup };
}

describe('Session.runUserToolCall (the UI’s !command)', () => {
  it('runs the call through the scheduler without asking (the person typed it), streams its events and records stats', async () => {
    const asked: string[] = [];
    const { session, log, cleanup } = makeSession(async (request) => {
      asked.push(request.call.name);
      return { outcome: 'cancel' };
    });
    const { events, result } = await collect(
      session.runUserToolCall('edit_thing', { value: 'x' }, new AbortController().signal),
    );
    expect(asked).toEqual([]);
    expect(log).toEqual(['edit:x']);
    expect(result.response).toMatchObject({ status: 'success', resultDisplay: 'x' });
    expect(events[0]).toMatchObject({
      type: 'tool_call_request',
      call: { name: 'edit_thing', args: { value: 'x' } },
    });
    expect(ofType(events, 'tool_call_status').map((event) => event.status)).toEqual([
      'scheduled',
      'executing',
      'success',
    ]);
    expect(session.statsSnapshot().tools.totalCalls).toBe(1);
    // Nothing joins the history: the front end decides what the model learns.
    expect(session.history()).toEqual([]);
    cleanup();
  });

  it('still refuses what a policy denies', async () => {
    const { ctx, cleanup } = tempContext();
    const log: string[] = [];
    const asked: string[] = [];
    const session = new Session({
      generator: new FakeContentGenerator([], { strict: true }),
      model: 'test-model',
      tools: new ToolRegistry(testTools(log)),
      toolContext: ctx,
      includeEnvironmentContext: false,
      approvals: {
        interactive: true,
        confirm: async (request) => {
          asked.push(request.call.name);
          return { outcome: 'cancel' };
        },
      },
      policy: {
        check: (call) => (call.name === 'edit_thing' ? { decision: 'deny' } : { decision: 'ask_user' }),
        allowForSession: () => {},
      },
    });
    const { result } = await collect(
      session.runUserToolCall('edit_thing', { value: 'z' }, new AbortController().signal),
    );
    expect(result.response.status).toBe('error');
    expect(result.response.resultDisplay).toContain('denied by policy');
    expect(log).toEqual([]);
    expect(asked).toEqual([]);
    cleanup();
  });

  it('runs a typed shell command inside the sandbox when one is on', async () => {
    const { ctx, cleanup } = tempContext();
    const prepared: string[] = [];
    const session = new Session({
      generator: new FakeContentGenerator([], { strict: true }),
      model: 'test-model',
      tools: new ToolRegistry(lazyBuiltinTools()),
      toolContext: ctx,
      includeEnvironmentContext: false,
      sandbox: {
        kind: 'bwrap',
        describe: () => 'bwrap',
        modelNote: () => 'Commands run in a sandbox.',
        status: async () => ({ ok: true }),
        async prepare(spec) {
          prepared.push(spec.args.join(' '));
          return { ok: false, message: 'the sandbox saw it' };
        },
      },
    });
    const { result } = await collect(
      session.runUserToolCall('run_shell_command', { command: 'echo hi' }, new AbortController().signal),
    );
    expect(prepared).toEqual(['-c echo hi']);
    expect(result.response.resultDisplay).toContain('the sandbox saw it');
    cleanup();
  });
});

describe('runUserToolCall (the module, with its dependencies injected)', () => {
  function fakeDeps() {
    const runs: { calls: ToolCallRequestInfo[]; options: { requestedByUser?: boolean } }[] = [];
    let prompts = 0;
    const deps: UserToolCallDeps = {
      nextPromptId: () => {
        prompts += 1;
        return `prompt-${prompts}`;
      },
      async *runTools(calls, _signal, options) {
        runs.push({ calls: [...calls], options });
        const request = calls[0]!;
        yield { type: 'tool_call_status', callId: request.callId, name: request.name, status: 'success' };
        return calls.map((call) => ({
          request: call,
          response: {
            callId: call.callId,
            name: call.name,
            status: 'success' as const,
            responseParts: [],
            resultDisplay: `ran ${call.name}`,
            durationMs: 0,
          },
        }));
      },
    };
    return { deps, runs, prompts: () => prompts };
  }

  it('announces the request first, runs it as asked by the person and returns how it ended', async () => {
    const { deps, runs } = fakeDeps();
    const { events, result } = await collect(
      runUserToolCall(
        deps,
        { name: 'edit_thing', args: { value: 'x' }, requestedBy: 'user' },
        new AbortController().signal,
      ),
    );
    expect(events.map((event) => event.type)).toEqual(['tool_call_request', 'tool_call_status']);
    expect(events[0]).toMatchObject({
      call: { name: 'edit_thing', args: { value: 'x' }, promptId: 'prompt-1' },
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.options).toEqual({ requestedByUser: true });
    expect(runs[0]!.calls[0]!.callId).toMatch(/^edit_thing_\d+_user$/);
    expect(result.response.resultDisplay).toBe('ran edit_thing');
  });

  it("gives a client's call no user privilege, and takes a prompt id only once it runs", async () => {
    const { deps, runs, prompts } = fakeDeps();
    const stream = runUserToolCall(
      deps,
      { name: 'read_thing', args: {}, requestedBy: 'client' },
      new AbortController().signal,
    );
    expect(prompts()).toBe(0);
    await collect(stream);
    expect(prompts()).toBe(1);
    expect(runs[0]!.options).toEqual({});
    expect(runs[0]!.calls[0]!.callId).toMatch(/^read_thing_\d+_client$/);
  });

  it("gives a custom command's step no user privilege: it is the file's text, not the person's", async () => {
    const { deps, runs } = fakeDeps();
    await collect(
      runUserToolCall(
        deps,
        { name: 'run_shell_command', args: { command: 'touch x' }, requestedBy: 'command' },
        new AbortController().signal,
      ),
    );
    expect(runs[0]!.options).toEqual({});
    expect(runs[0]!.calls[0]!.callId).toMatch(/^run_shell_command_\d+_command$/);
  });
});
