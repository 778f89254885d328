import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../src/contracts/messages';
import { FakeContentGenerator } from '../../src/llm/fake';
import type { ConfirmHandler } from '../../src/scheduler/scheduler';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, ofType, stream, tempContext, testTools, text } from '../helpers';

function makeSession(
  script: GenerateResponse[][],
  options: {
    log?: string[];
    confirm?: ConfirmHandler;
    approvalMode?: 'default' | 'yolo';
    maxSessionTurns?: number;
    outputLimit?: number;
  } = {},
) {
  const generator = new FakeContentGenerator(
    script.map((chunks) => stream(...chunks)),
    { strict: true },
  );
  const { ctx, cleanup, root } = tempContext();
  const spillDir = join(root, '.spill');
  const session = new Session({
    generator,
    model: 'test-model',
    tools: new ToolRegistry(testTools(options.log)),
    toolContext: ctx,
    approvalMode: options.approvalMode ?? 'default',
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    approvals: options.confirm ? { interactive: true, confirm: options.confirm } : { interactive: false },
    ...(options.maxSessionTurns !== undefined ? { maxSessionTurns: options.maxSessionTurns } : {}),
    ...(options.outputLimit !== undefined
      ? { outputLimit: { thresholdChars: options.outputLimit, spillDir } }
      : {}),
  });
  return { session, generator, cleanup, spillDir };
}

const run = (session: Session, prompt = 'go', signal = new AbortController().signal) =>
  collect(session.sendMessage(prompt, signal));

describe('Session', () => {
  it('answers a text-only prompt', async () => {
    const { session } = makeSession([[text('Hello!')]]);
    const { events, result } = await run(session);
    expect(result).toEqual({ kind: 'completed', text: 'Hello!' });
    expect(ofType(events, 'content').map((event) => event.text)).toEqual(['Hello!']);
    expect(ofType(events, 'model_info')).toEqual([{ type: 'model_info', model: 'test-model' }]);
  });

  it('runs tools, sends responses in request order and records stats', async () => {
    const log: string[] = [];
    const { session, generator } = makeSession(
      [
        [
          calls(
            { name: 'echo', args: { value: 'slow', delay_ms: 60 } },
            { name: 'echo', args: { value: 'fast', delay_ms: 0 } },
          ),
        ],
        [text('Both done.')],
      ],
      { log },
    );
    const { events, result } = await run(session);
    expect(result.kind).toBe('completed');
    expect(generator.unconsumed).toBe(0);
    // Read-only calls ran in parallel: the fast one finished before the slow one.
    expect(log).toEqual(['start:slow', 'start:fast', 'end:fast', 'end:slow']);
    const history = session.history();
    const responses = history[2]!.parts.map((part) => part.functionResponse?.response);
    expect(responses).toEqual([{ output: 'echo slow' }, { output: 'echo fast' }]);
    expect(ofType(events, 'tool_call_response').map((event) => event.response.status)).toEqual([
      'success',
      'success',
    ]);
    const stats = session.statsSnapshot();
    expect(stats.tools.byName.echo).toMatchObject({ count: 2, success: 2, fail: 0 });
    expect(stats.tools.totalDecisions.accept).toBe(2);
    expect(stats.models['test-model']?.api.totalRequests).toBe(2);
  });

  it('runs an edit alone between read waves', async () => {
    const log: string[] = [];
    const { session } = makeSession(
      [
        [
          calls(
            { name: 'echo', args: { value: 'a', delay_ms: 20 } },
            { name: 'edit_thing', args: { value: 'e' } },
            { name: 'echo', args: { value: 'b' } },
          ),
        ],
        [text('ok')],
      ],
      { log, approvalMode: 'yolo' },
    );
    await run(session);
    expect(log).toEqual(['start:a', 'end:a', 'edit:e', 'start:b', 'end:b']);
    expect(session.statsSnapshot().files).toEqual({ totalLinesAdded: 2, totalLinesRemoved: 1 });
  });

  it('turns unknown tools, bad arguments and thrown errors into error results', async () => {
    const { session } = makeSession([
      [
        calls(
          { name: 'ecko', args: { value: 'x' } },
          { name: 'echo', args: { delay_ms: 'soon' } },
          { name: 'boom', args: {} },
        ),
      ],
      [text('I see.')],
    ]);
    const { result } = await run(session);
    expect(result.kind).toBe('completed');
    const responses = session.history()[2]!.parts.map((part) => part.functionResponse?.response);
    expect(responses[0]).toEqual({
      error: expect.stringMatching(/^Tool "ecko" not found\. Did you mean one of: "echo"/),
    });
    expect(responses[1]).toEqual({
      error:
        "params must have required property 'value'; params/delay_ms invalid input: expected number, received string",
    });
    expect(responses[2]).toEqual({ error: 'kaboom' });
  });

  it('refuses calls that need approval when nobody can approve', async () => {
    const { session } = makeSession([[calls({ name: 'edit_thing', args: { value: 'x' } })], [text('ok')]]);
    await run(session);
    const response = session.history()[2]!.parts[0]!.functionResponse!.response;
    expect(response.error).toBe(
      'Tool execution for "EditThing" requires user confirmation, which is not supported in non-interactive mode.',
    );
  });

  it('asks the confirm handler; a denial cancels the rest of the batch', async () => {
    const asked: string[] = [];
    const { session } = makeSession(
      [
        [calls({ name: 'edit_thing', args: { value: 'x' } }, { name: 'edit_thing', args: { value: 'y' } })],
        [text('ok')],
      ],
      {
        confirm: async ({ call }) => {
          asked.push(String(call.args.value));
          return { outcome: 'cancel' };
        },
      },
    );
    const { events } = await run(session);
    expect(asked).toEqual(['x']);
    expect(ofType(events, 'tool_call_confirmation')).toHaveLength(1);
    const responses = session.history()[2]!.parts.map((part) => part.functionResponse?.response);
    expect(responses).toEqual([
      { error: '[Operation Cancelled] Reason: User denied execution.' },
      { error: '[Operation Cancelled] Reason: User cancelled operation' },
    ]);
    expect(session.statsSnapshot().tools.totalDecisions.reject).toBe(1);
  });

  it('remembers "allow always" for the session', async () => {
    let asked = 0;
    const { session } = makeSession(
      [
        [calls({ name: 'edit_thing', args: { value: 'x' } })],
        [calls({ name: 'edit_thing', args: { value: 'y' } })],
        [text('ok')],
      ],
      {
        confirm: async () => {
          asked += 1;
          return { outcome: 'proceed_always' };
        },
      },
    );
    await run(session);
    expect(asked).toBe(1);
    expect(session.statsSnapshot().tools.totalDecisions).toMatchObject({ auto_accept: 1, accept: 1 });
  });

  it('runs a call with arguments the person edited, and tells the model', async () => {
    const { session } = makeSession([[calls({ name: 'edit_thing', args: { value: 'x' } })], [text('ok')]], {
      confirm: async () => ({ outcome: 'modify_with_editor', modifiedArgs: { value: 'edited' } }),
    });
    await run(session);
    const response = session.history()[2]!.parts[0]!.functionResponse!.response;
    expect(response.output).toMatch(/^edited edited\n\n\[System\] The user modified the arguments/);
    expect(session.statsSnapshot().tools.totalDecisions.modify).toBe(1);
  });

  it('passes the reason of a denial to the model', async () => {
    const { session } = makeSession([[calls({ name: 'edit_thing', args: { value: 'x' } })], [text('ok')]], {
      confirm: async () => ({ outcome: 'cancel', reason: 'use the other file' }),
    });
    await run(session);
    expect(session.history()[2]!.parts[0]!.functionResponse!.response).toEqual({
      error: '[Operation Cancelled] Reason: User denied execution. The user said: use the other file',
    });
  });

  it('caps long tool output for the model and saves the whole of it', async () => {
    const { session, spillDir } = makeSession(
      [[calls({ name: 'echo', args: { value: 'y'.repeat(5_000) } })], [text('ok')]],
      { outputLimit: 1_000 },
    );
    await run(session);
    const output = String(session.history()[2]!.parts[0]!.functionResponse!.response.output);
    const path = /For full output see: (\S+)/.exec(output)?.[1];
    expect(output).toMatch(/^Output too large\. Showing first 200 and last 800 characters\./);
    expect(output).toContain('... [4,005 characters omitted] ...');
    expect(path?.startsWith(spillDir)).toBe(true);
    expect(readFileSync(path!, 'utf8')).toBe(`echo ${'y'.repeat(5_000)}`);
  });

  it('cancels a running tool, answers every call and keeps the history valid', async () => {
    const { session } = makeSession(
      [
        [calls({ name: 'wait_abort', args: {} }, { name: 'echo', args: { value: 'later' } })],
        [text('after')],
      ],
      { approvalMode: 'yolo' },
    );
    const controller = new AbortController();
    const events = [];
    for await (const event of session.sendMessage('go', controller.signal)) {
      events.push(event);
      if (event.type === 'tool_progress') controller.abort();
    }
    expect(events.at(-1)).toEqual({ type: 'user_cancelled' });
    const history = session.history();
    expect(history.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(history[2]!.parts.map((part) => part.functionResponse?.response)).toEqual([
      { error: '[Operation Cancelled] User cancelled tool execution.', output: 'partial output' },
      { error: '[Operation Cancelled] Reason: Operation cancelled' },
    ]);
    // The next prompt continues from a valid history.
    const next = await run(session, 'again');
    expect(next.result).toEqual({ kind: 'completed', text: 'after' });
    expect(session.history().map((content) => content.role)).toEqual(['user', 'model', 'user', 'model']);
  });

  it('stops a prompt at its per-prompt turn budget', async () => {
    const generator = new FakeContentGenerator(
      Array.from({ length: 3 }, (_, i) => stream(calls({ name: 'echo', args: { value: `v${i}` } }))),
      { strict: true },
    );
    const { ctx } = tempContext();
    const session = new Session({
      generator,
      model: 'm',
      tools: new ToolRegistry(testTools()),
      toolContext: ctx,
      includeEnvironmentContext: false,
      maxTurnsPerPrompt: 3,
    });
    const { events, result } = await run(session);
    expect(result.kind).toBe('turn_limit');
    expect(ofType(events, 'max_session_turns')).toEqual([{ type: 'max_session_turns', limit: 3 }]);
    expect(generator.unconsumed).toBe(0);
    // The last batch's responses were never sent but still answer their calls.
    const history = session.history();
    expect(history.at(-1)?.parts[0]?.functionResponse?.name).toBe('echo');
    expect(history.map((content) => content.role)).toEqual([
      'user',
      'model',
      'user',
      'model',
      'user',
      'model',
      'user',
    ]);
  });

  it('stops at maxSessionTurns', async () => {
    const { session } = makeSession(
      [[calls({ name: 'echo', args: { value: 'a' } })], [calls({ name: 'echo', args: { value: 'b' } })]],
      { maxSessionTurns: 1 },
    );
    const { events, result } = await run(session);
    expect(result.kind).toBe('turn_limit');
    expect(ofType(events, 'max_session_turns')).toEqual([{ type: 'max_session_turns', limit: 1 }]);
  });

  it('reports a model error as an event and a result, never a throw', async () => {
    const { session } = makeSession([]);
    const { events, result } = await run(session);
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' && result.failure.message).toMatch(
      /^No more mock responses for generateContentStream/,
    );
    expect(ofType(events, 'error')).toHaveLength(1);
  });

  it('generates call ids for calls without one and echoes provider ids back', async () => {
    const { session } = makeSession([
      [calls({ name: 'echo', args: { value: 'a' } }, { name: 'echo', args: { value: 'b' }, id: 'call-7' })],
      [text('ok')],
    ]);
    const { events } = await run(session);
    const ids = ofType(events, 'tool_call_request').map((event) => event.call.callId);
    expect(ids[0]).toMatch(/^echo_\d+_\d+$/);
    expect(ids[1]).toBe('call-7');
    const parts = session.history()[2]!.parts;
    expect(parts[0]!.functionResponse!.id).toBeUndefined();
    expect(parts[1]!.functionResponse!.id).toBe('call-7');
  });
});
