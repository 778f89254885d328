import { describe, expect, it } from 'vitest';
import { askForJson, parseJsonObject } from '../../../src/tools/edit/model-json';
import { fakeModel, hangingAnswer } from './fake-model';

const request = { systemInstruction: 'sys', prompt: 'question' };

describe('askForJson', () => {
  it('sends one user prompt with the system instruction and parses the object', async () => {
    const model = fakeModel(() => 'Sure:\n```json\n{"ok": true, "n": 2}\n```');
    const answer = await askForJson(model, request, {
      signal: new AbortController().signal,
      timeoutMs: 1000,
    });
    expect(answer).toEqual({ ok: true, n: 2 });
    expect(model.calls[0]!.request).toMatchObject({
      systemInstruction: 'sys',
      contents: [{ role: 'user', parts: [{ text: 'question' }] }],
      config: { temperature: 0 },
    });
  });

  it('gives up at the timeout, aborting the call, even if the transport ignores the signal', async () => {
    const aborting = fakeModel(hangingAnswer);
    expect(
      await askForJson(aborting, request, { signal: new AbortController().signal, timeoutMs: 30 }),
    ).toBeUndefined();
    expect(aborting.calls[0]!.signal.aborted).toBe(true);
    const deaf = fakeModel(() => new Promise<string>(() => {}));
    const started = Date.now();
    expect(
      await askForJson(deaf, request, { signal: new AbortController().signal, timeoutMs: 30 }),
    ).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not call at all once aborted', async () => {
    const model = fakeModel(() => '{}');
    expect(
      await askForJson(model, request, { signal: AbortSignal.abort(), timeoutMs: 1000 }),
    ).toBeUndefined();
    expect(model.calls).toHaveLength(0);
  });
});

describe('parseJsonObject', () => {
  it('finds the object in an answer and rejects anything else', () => {
    expect(parseJsonObject('x {"a": {"b": 1}} y')).toEqual({ a: { b: 1 } });
    for (const text of ['', 'no json', '[1, 2]', '{broken', 'null', '} {'])
      expect(parseJsonObject(text)).toBeUndefined();
  });
});
