// `/compress <instructions>`: what the person asks the summary to keep reaches the summariser.

import { describe, expect, it } from 'vitest';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import { FakeContentGenerator, type RecordedCall } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { collect, stream, tempContext, text } from '../helpers';

/** The fake model, keeping every one-shot request (the summariser's) it was sent. */
class RecordingFake extends FakeContentGenerator {
  readonly oneShots: GenerateRequest[] = [];
  override async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    this.oneShots.push(structuredClone(request));
    return super.generateContent(request, signal);
  }
}

const oneShot = (response: GenerateResponse): RecordedCall => ({ method: 'generateContent', response });

describe('Session.compress with instructions', () => {
  it('puts the instructions in the summariser request, and only when given', async () => {
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const run = async (instructions?: string) => {
      const { ctx, cleanup } = tempContext();
      const generator = new RecordingFake([
        stream(text(long)),
        stream(text(long)),
        stream(text(long)),
        oneShot(text('<state_snapshot>summary</state_snapshot>')),
        oneShot(text('<state_snapshot>verified</state_snapshot>')),
      ]);
      const session = new Session({
        generator,
        model: 'gemini-2.5-flash',
        tools: new ToolRegistry([]),
        toolContext: ctx,
        includeEnvironmentContext: false,
        retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
      });
      for (const prompt of ['one', 'two', 'three'])
        await collect(session.sendMessage(prompt, new AbortController().signal));
      const result = await session.compress(
        new AbortController().signal,
        instructions ? { instructions } : {},
      );
      cleanup();
      return { result, requests: generator.oneShots.map((request) => JSON.stringify(request.contents)) };
    };

    const withInstructions = await run('keep the list of failing tests');
    expect(withInstructions.result.status).toBe('compressed');
    expect(withInstructions.requests).toHaveLength(2);
    for (const request of withInstructions.requests)
      expect(request).toContain('keep the list of failing tests');

    const without = await run();
    expect(without.requests[0]).not.toContain('keep in mind');
  });
});
