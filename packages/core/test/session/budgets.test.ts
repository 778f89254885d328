import { historyProblems } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { type BudgetLimits, BudgetTracker, parseDuration } from '../../src/agent/budgets';
import type { GenerateResponse, UsageMetadata } from '../../src/contracts/messages';
import { FakeContentGenerator } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, ofType, stream, tempContext, testTools, text } from '../helpers';

const withUsage = (response: GenerateResponse, usage: UsageMetadata): GenerateResponse => ({
  ...response,
  usageMetadata: usage,
});
const tokens = (total: number): UsageMetadata => ({
  promptTokenCount: total - 10,
  candidatesTokenCount: 10,
  totalTokenCount: total,
});

function makeSession(script: GenerateResponse[], budgets: BudgetLimits, model = 'gemini-2.5-flash') {
  const generator = new FakeContentGenerator(
    script.map((response) => stream(response)),
    { strict: true },
  );
  const { ctx } = tempContext();
  const session = new Session({
    generator,
    model,
    tools: new ToolRegistry(testTools()),
    toolContext: ctx,
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    budgets,
  });
  return { session, generator };
}

const run = (session: Session, prompt = 'go') =>
  collect(session.sendMessage(prompt, new AbortController().signal));

describe('BudgetTracker', () => {
  it('prices each response with the model table, long-context prices included', () => {
    const tracker = new BudgetTracker();
    tracker.onApiResponse({
      model: 'gemini-2.5-pro',
      durationMs: 1,
      usage: { promptTokenCount: 100_000, candidatesTokenCount: 1_000, totalTokenCount: 101_000 },
    });
    // Over 200k prompt tokens the long-context price ($2.50 / $15) applies to that request only.
    tracker.onApiResponse({
      model: 'gemini-2.5-pro',
      durationMs: 1,
      usage: { promptTokenCount: 300_000, candidatesTokenCount: 0, totalTokenCount: 300_000 },
    });
    tracker.onApiResponse({ model: 'my-local-model', durationMs: 1, usage: { totalTokenCount: 50 } });
    const usage = tracker.usage();
    expect(usage.costUsd).toBeCloseTo(0.125 + 0.01 + 0.75, 10);
    expect(usage.costByModel).toEqual({ 'gemini-2.5-pro': usage.costUsd });
    expect(usage.tokens).toBe(401_050);
    expect(usage.unpricedModels).toEqual(['my-local-model']);
  });

  it('says which budget ran out', () => {
    let now = 1_000;
    const tracker = new BudgetTracker(
      { maxCostUsd: 0.5, maxTokens: 1_000, maxToolCalls: 3, maxTimeMs: 60_000 },
      { now: () => now },
    );
    expect(tracker.active).toBe(true);
    expect(new BudgetTracker().active).toBe(false);
    tracker.start();
    expect(tracker.beforeRequest()).toBeUndefined();
    tracker.recordToolCalls(2);
    expect(tracker.beforeTools(1)).toBeUndefined();
    expect(tracker.beforeTools(2)).toMatchObject({
      budget: 'tool_calls',
      limit: 3,
      used: 2,
      message: 'Tool call budget reached: 2 of 3 tool calls made, and the model asked for 2 more.',
    });
    now += 61_000;
    expect(tracker.beforeRequest()).toMatchObject({
      budget: 'time',
      message: 'Time budget reached: 61 s elapsed of 60 s allowed.',
    });
    tracker.onApiResponse({ model: 'gemini-2.5-flash', durationMs: 1, usage: { totalTokenCount: 1_200 } });
    expect(tracker.beforeRequest()).toMatchObject({
      budget: 'tokens',
      message: 'Token budget reached: 1,200 tokens used of 1,000 allowed.',
    });
    tracker.onApiResponse({ model: 'gpt-5', durationMs: 1, usage: { candidatesTokenCount: 100_000 } });
    expect(tracker.beforeRequest()).toMatchObject({
      budget: 'cost',
      used: 1,
      message: 'Cost budget reached: $1.00 spent of $0.5000 allowed.',
    });
  });

  it.each([
    ['90', 90_000],
    ['1.5', 1_500],
    ['500ms', 500],
    ['90s', 90_000],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['0', undefined],
    ['-5', undefined],
    ['ten', undefined],
    ['5d', undefined],
  ])('parseDuration(%s) = %s', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });
});

describe('Session budgets', () => {
  it('stops before running the tools of a response that used up the tokens, keeping the history valid', async () => {
    const { session, generator } = makeSession(
      [withUsage(calls({ name: 'echo', args: { value: 'a' } }), tokens(600)), text('never sent')],
      { maxTokens: 500 },
    );
    const { events, result } = await run(session);
    expect(result.kind).toBe('budget');
    expect(ofType(events, 'budget_exceeded')).toEqual([
      {
        type: 'budget_exceeded',
        budget: 'tokens',
        limit: 500,
        used: 600,
        message: 'Token budget reached: 600 tokens used of 500 allowed.',
      },
    ]);
    expect(ofType(events, 'tool_call_response').map((event) => event.response.status)).toEqual(['cancelled']);
    expect(generator.unconsumed).toBe(1);
    expect(historyProblems(session.history())).toEqual([]);
    const response = session.history().at(-1)!.parts[0]!.functionResponse!.response;
    expect(response.error).toContain('[Operation Cancelled] Reason: Token budget reached');
  });

  it('runs tool batches that fit the tool-call budget and refuses the one that would pass it', async () => {
    const { session, generator } = makeSession(
      [
        calls({ name: 'echo', args: { value: 'one' } }),
        calls({ name: 'echo', args: { value: 'two' } }, { name: 'echo', args: { value: 'three' } }),
        text('never sent'),
      ],
      { maxToolCalls: 2 },
    );
    const { events, result } = await run(session);
    expect(result.kind).toBe('budget');
    expect(ofType(events, 'tool_call_response').map((event) => event.response.status)).toEqual([
      'success',
      'cancelled',
      'cancelled',
    ]);
    expect(session.budget.usage().toolCalls).toBe(1);
    expect(generator.unconsumed).toBe(1);
    expect(historyProblems(session.history())).toEqual([]);
  });

  it('refuses the next prompt once the money is spent, without sending it', async () => {
    const { session, generator } = makeSession(
      [
        withUsage(text('Expensive answer.'), { promptTokenCount: 1_000_000, totalTokenCount: 1_000_000 }),
        text('never sent'),
      ],
      { maxCostUsd: 0.25 },
    );
    // gemini-2.5-flash: $0.30 per million prompt tokens.
    expect((await run(session, 'first')).result).toEqual({ kind: 'completed', text: 'Expensive answer.' });
    const second = await run(session, 'second');
    expect(second.result.kind).toBe('budget');
    expect(ofType(second.events, 'budget_exceeded')[0]!.message).toBe(
      'Cost budget reached: $0.3000 spent of $0.2500 allowed.',
    );
    expect(generator.unconsumed).toBe(1);
    // The refused prompt was never answered, so it does not stay to be re-sent with a later one.
    expect(session.history().at(-1)).toEqual({ role: 'model', parts: [{ text: 'Expensive answer.' }] });
  });

  // Issue N: an unpriced model counted as free, so a dollar budget never tripped for it.
  it('a dollar budget refuses a model without a known price before sending, also after /model switches to one', async () => {
    const { session, generator } = makeSession(
      [text('priced answer'), withUsage(text('never sent'), tokens(5_000_000))],
      { maxCostUsd: 0.01 },
    );
    expect((await run(session, 'first')).result.kind).toBe('completed');
    session.setModel('openai:gpt-unpriced-7');
    const second = await run(session, 'second');
    expect(second.result.kind).toBe('budget');
    const [stop] = ofType(second.events, 'budget_exceeded');
    expect(stop!.message).toContain('The price of openai:gpt-unpriced-7 is not known');
    expect(stop!.message).toContain('providers.openai.modelOverrides.gpt-unpriced-7.price');
    expect(generator.unconsumed).toBe(1);

    const unpricedFromStart = makeSession([text('never sent')], { maxCostUsd: 5 }, 'my-local-model');
    expect((await run(unpricedFromStart.session)).result.kind).toBe('budget');
    expect(unpricedFromStart.generator.unconsumed).toBe(1);
  });

  it('a model without a price runs as before when no dollar budget is set', async () => {
    const { session } = makeSession([text('free')], { maxTokens: 1_000 }, 'my-local-model');
    expect((await run(session)).result).toEqual({ kind: 'completed', text: 'free' });
  });

  it('stops when the wall time since the first prompt runs out', async () => {
    const { session, generator } = makeSession(
      [calls({ name: 'echo', args: { value: 'slow', delay_ms: 120 } }), text('never sent')],
      { maxTimeMs: 60 },
    );
    const { events, result } = await run(session);
    expect(result.kind).toBe('budget');
    expect(ofType(events, 'budget_exceeded')[0]!.budget).toBe('time');
    expect(generator.unconsumed).toBe(1);
    expect(historyProblems(session.history())).toEqual([]);
  });
});
