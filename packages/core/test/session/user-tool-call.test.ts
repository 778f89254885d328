import { describe, expect, it } from 'vitest';
import { FakeContentGenerator } from '../../src/llm/fake';
import type { ConfirmationRequest } from '../../src/scheduler/scheduler';
import { Session } from '../../src/session/session';
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
    ...(confirm ? { confirm } : {}),
  });
  return { session, log, cleanup };
}

describe('Session.runUserToolCall (the UI’s !command)', () => {
  it('runs the call through the scheduler with approval, streams its events and records stats', async () => {
    const asked: string[] = [];
    const { session, log, cleanup } = makeSession(async (request) => {
      asked.push(request.call.name);
      return { outcome: 'proceed_once' };
    });
    const { events, result } = await collect(
      session.runUserToolCall('edit_thing', { value: 'x' }, new AbortController().signal),
    );
    expect(asked).toEqual(['edit_thing']);
    expect(log).toEqual(['edit:x']);
    expect(result.response).toMatchObject({ status: 'success', resultDisplay: 'x' });
    expect(events[0]).toMatchObject({
      type: 'tool_call_request',
      call: { name: 'edit_thing', args: { value: 'x' } },
    });
    expect(ofType(events, 'tool_call_status').map((event) => event.status)).toEqual([
      'awaiting_approval',
      'scheduled',
      'executing',
      'success',
    ]);
    expect(session.stats.snapshot().tools.totalCalls).toBe(1);
    // Nothing joins the history: the front end decides what the model learns.
    expect(session.history()).toEqual([]);
    cleanup();
  });

  it('does not run a denied call, and refuses calls needing approval without a handler', async () => {
    const denied = makeSession(async () => ({ outcome: 'cancel' }));
    const { result } = await collect(
      denied.session.runUserToolCall('edit_thing', { value: 'y' }, new AbortController().signal),
    );
    expect(result.response.status).toBe('cancelled');
    expect(denied.log).toEqual([]);
    denied.cleanup();
    const headless = makeSession();
    const refused = await collect(
      headless.session.runUserToolCall('edit_thing', { value: 'z' }, new AbortController().signal),
    );
    expect(refused.result.response.status).toBe('error');
    expect(headless.log).toEqual([]);
    headless.cleanup();
  });
});
