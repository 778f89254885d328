// Model calls outside the conversation — a tool asking the model (web_fetch, the edit fixer) and
// compression — count in the session's stats under their own role, and in its budget.

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { GenerateResponse } from '../../src/contracts/messages';
import { FakeContentGenerator, type RecordedCall } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { defineTool } from '../../src/tools/define-tool';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, stream, tempContext, text } from '../helpers';

const withUsage = (response: GenerateResponse, total: number): GenerateResponse => ({
  ...response,
  usageMetadata: { promptTokenCount: total - 5, candidatesTokenCount: 5, totalTokenCount: total },
});
const oneShot = (response: GenerateResponse): RecordedCall => ({ method: 'generateContent', response });

/** A tool that asks the session's model a question, as web_fetch does with a fetched page. */
const askModel = defineTool({
  name: 'ask_model',
  displayName: 'AskModel',
  kind: 'read',
  description: 'Asks the model.',
  parameters: z.object({ question: z.string() }),
  describe: (p) => p.question,
  async execute(p, ctx, { signal }) {
    const answer = await ctx.model!.generateContent(
      { contents: [{ role: 'user', parts: [{ text: p.question }] }] },
      signal,
    );
    return { llmContent: answer.candidates?.[0]?.content?.parts?.[0]?.text ?? '', returnDisplay: 'asked' };
  },
});

function makeSession(script: RecordedCall[], budgets = {}) {
  const { ctx } = tempContext();
  return new Session({
    generator: new FakeContentGenerator(script, { strict: true }),
    model: 'gemini-2.5-flash',
    tools: new ToolRegistry([askModel]),
    toolContext: ctx,
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    budgets,
  });
}

describe('model calls outside the conversation', () => {
  it("count under role utility_tool, next to the conversation's main role", async () => {
    const session = makeSession([
      stream(withUsage(calls({ name: 'ask_model', args: { question: 'what?' } }), 100)),
      oneShot(withUsage(text('this'), 40)),
      stream(withUsage(text('done'), 200)),
    ]);
    await collect(session.sendMessage('go', new AbortController().signal));
    const model = session.statsSnapshot().models['gemini-2.5-flash']!;
    expect(model.api.totalRequests).toBe(3);
    expect(model.tokens.total).toBe(340);
    expect(model.roles.main?.totalRequests).toBe(2);
    expect(model.roles.main?.tokens.total).toBe(300);
    expect(model.roles.utility_tool?.totalRequests).toBe(1);
    expect(model.roles.utility_tool?.tokens.total).toBe(40);
    expect(session.budgetUsage().tokens).toBe(340);
  });

  it('count failed calls as errors of their role', async () => {
    const session = makeSession([
      stream(calls({ name: 'ask_model', args: { question: 'what?' } })),
      // The fake has no more generateContent entries: the tool's call fails.
      stream(text('done')),
    ]);
    await collect(session.sendMessage('go', new AbortController().signal));
    const roles = session.statsSnapshot().models['gemini-2.5-flash']!.roles;
    expect(roles.utility_tool?.totalErrors).toBe(1);
    expect(roles.main?.totalErrors).toBe(0);
  });

  it('count compression under role utility_compressor', async () => {
    // Varied text: a repeated phrase would trip the loop detector.
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const session = makeSession([
      stream(withUsage(text(long), 500)),
      stream(withUsage(text(long), 900)),
      stream(withUsage(text(long), 1300)),
      oneShot(withUsage(text('<state_snapshot>summary</state_snapshot>'), 70)),
      oneShot(withUsage(text('<state_snapshot>verified summary</state_snapshot>'), 80)),
    ]);
    for (const prompt of ['one', 'two', 'three'])
      await collect(session.sendMessage(prompt, new AbortController().signal));
    const result = await session.compress(new AbortController().signal);
    expect(result.status).toBe('compressed');
    const roles = session.statsSnapshot().models['gemini-2.5-flash']!.roles;
    expect(roles.utility_compressor?.totalRequests).toBe(2);
    expect(roles.utility_compressor?.tokens.total).toBe(150);
  });
});
