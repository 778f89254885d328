import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../src/contracts/messages';
import { FakeContentGenerator } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, ofType, stream, tempContext, testTools, text } from '../helpers';

class CapturingGenerator extends FakeContentGenerator {
  readonly requests: GenerateRequest[] = [];
  override generateContentStream(request: GenerateRequest, signal: AbortSignal) {
    this.requests.push(structuredClone(request));
    return super.generateContentStream(request, signal);
  }
}

function sessionWith(script: ReturnType<typeof stream>[]) {
  const generator = new CapturingGenerator(script, { strict: true });
  const { ctx, cleanup } = tempContext();
  const session = new Session({
    generator,
    model: 'test-model',
    tools: new ToolRegistry(testTools()),
    toolContext: ctx,
    approvalMode: 'yolo',
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
  });
  return { session, generator, cleanup };
}

describe('steering', () => {
  it('a line sent while a tool runs goes in after its result, before the next request', async () => {
    const { session, generator, cleanup } = sessionWith([
      stream(calls({ name: 'echo', args: { value: 'a', delay_ms: 20 } })),
      stream(text('switched to b')),
    ]);
    const events = [];
    for await (const event of session.sendMessage('do a', new AbortController().signal)) {
      // While the tool runs (its request is out, its result is not back yet).
      if (event.type === 'tool_call_request') session.steer('actually, do b');
      events.push(event);
    }
    expect(generator.requests).toHaveLength(2);
    const lastTurn = generator.requests[1]!.contents.at(-1)!;
    expect(lastTurn.role).toBe('user');
    expect(lastTurn.parts.map((part) => (part.functionResponse ? 'response' : part.text))).toEqual([
      'response',
      'actually, do b',
    ]);
    const steering = ofType(events, 'steering');
    expect(steering).toEqual([{ type: 'steering', text: 'actually, do b' }]);
    // Announced after the tool's result, before the second answer.
    const order = events.map((event) => event.type);
    expect(order.indexOf('steering')).toBeGreaterThan(order.indexOf('tool_call_response'));
    expect(order.lastIndexOf('content')).toBeGreaterThan(order.indexOf('steering'));
    expect(session.takeSteering()).toEqual([]);
    cleanup();
  });

  it('a turn that ends without another request leaves the line for the front end to send next', async () => {
    const { session, generator, cleanup } = sessionWith([stream(text('done'))]);
    for await (const event of session.sendMessage('hi', new AbortController().signal)) {
      if (event.type === 'content') session.steer('and then this');
    }
    expect(generator.requests).toHaveLength(1);
    expect(JSON.stringify(generator.requests[0]!.contents)).not.toContain('and then this');
    expect(session.takeSteering()).toEqual(['and then this']);
    expect(session.takeSteering()).toEqual([]);
    cleanup();
  });

  it('a cancelled turn does not take the line', async () => {
    const { session, cleanup } = sessionWith([stream(calls({ name: 'wait_abort', args: {} }))]);
    const abort = new AbortController();
    for await (const event of session.sendMessage('wait', abort.signal)) {
      if (event.type === 'tool_call_request') {
        session.steer('never mind');
        setTimeout(() => abort.abort(), 5);
      }
    }
    expect(session.takeSteering()).toEqual(['never mind']);
    expect(JSON.stringify(session.history())).not.toContain('never mind');
    cleanup();
  });

  it('a steered line whose request fails is not lost: it leaves the history and comes back to be sent next', async () => {
    const { session, generator, cleanup } = sessionWith([
      stream(calls({ name: 'echo', args: { value: 'a', delay_ms: 20 } })),
    ]);
    // The request carrying the steered line fails (the script has nothing more: not retried).
    const events = [];
    for await (const event of session.sendMessage('do a', new AbortController().signal)) {
      if (event.type === 'tool_call_request') session.steer('actually, do b');
      events.push(event);
    }
    expect(ofType(events, 'steering')).toEqual([{ type: 'steering', text: 'actually, do b' }]);
    expect(generator.requests).toHaveLength(2);
    expect(JSON.stringify(generator.requests[1]!.contents)).toContain('actually, do b');
    expect(ofType(events, 'error')).toHaveLength(1);
    // Not left unanswered in the history (it would go again, unseen, with the next prompt)…
    expect(JSON.stringify(session.history())).not.toContain('actually, do b');
    // …but given back, for the front end to send as the next prompt.
    expect(session.takeSteering()).toEqual(['actually, do b']);
    cleanup();
  });

  it('a steered line taken when a limit stops the loop before the next request comes back too', async () => {
    const generator = new CapturingGenerator(
      [stream(calls({ name: 'echo', args: { value: 'a', delay_ms: 20 } }))],
      { strict: true },
    );
    const { ctx, cleanup } = tempContext();
    const session = new Session({
      generator,
      model: 'test-model',
      tools: new ToolRegistry(testTools()),
      toolContext: ctx,
      approvalMode: 'yolo',
      includeEnvironmentContext: false,
      maxTurnsPerPrompt: 1,
    });
    for await (const event of session.sendMessage('do a', new AbortController().signal)) {
      if (event.type === 'tool_call_request') {
        session.steer('first');
        session.steer('second');
      }
    }
    expect(generator.requests).toHaveLength(1);
    session.steer('typed later');
    expect(session.takeSteering()).toEqual(['first', 'second', 'typed later']);
    cleanup();
  });

  it('blank lines are not steering', () => {
    const { session, cleanup } = sessionWith([]);
    session.steer('   ');
    expect(session.takeSteering()).toEqual([]);
    cleanup();
  });
});
