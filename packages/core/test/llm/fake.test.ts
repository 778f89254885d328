import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import { FakeContentGenerator, type RecordedCall } from '../../src/llm/fake';

const request: GenerateRequest = { model: 'm', contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
const signal = new AbortController().signal;
const answer = (text: string): GenerateResponse => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
});
const streamed = (text: string): RecordedCall => ({
  method: 'generateContentStream',
  response: [answer(text)],
});
const unary = (text: string): RecordedCall => ({ method: 'generateContent', response: answer(text) });

async function streamText(fake: FakeContentGenerator): Promise<string> {
  let text = '';
  for await (const chunk of fake.generateContentStream(request, signal)) {
    text += chunk.candidates?.[0]?.content?.parts?.[0]?.text ?? '';
  }
  return text;
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
function file(lines: string[]): string {
  dir = mkdtempSync(join(tmpdir(), 'kodo-fake-'));
  const path = join(dir, 'fake.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('FakeContentGenerator', () => {
  it('replays a file in order, each answer a fresh object the caller may change', async () => {
    const path = file([JSON.stringify(streamed('one')), '', JSON.stringify(unary('two'))]);
    const fake = FakeContentGenerator.fromFile(path, { strict: true });
    expect(fake.unconsumed).toBe(2);
    expect(await streamText(fake)).toBe('one');
    const second = await fake.generateContent(request, signal);
    expect(second.candidates?.[0]?.content?.parts?.[0]?.text).toBe('two');
    expect(fake.unconsumed).toBe(0);
    await expect(fake.generateContent(request, signal)).rejects.toThrow(/No more mock responses/);
  });

  it('hands out copies of the calls it was given, never the objects themselves', async () => {
    const calls = [streamed('same'), streamed('same')];
    const fake = new FakeContentGenerator(calls);
    for await (const chunk of fake.generateContentStream(request, signal)) {
      chunk.candidates![0]!.content!.parts![0]!.text = 'changed';
    }
    expect(await streamText(fake)).toBe('same');
    expect(calls[0]).toEqual(streamed('same'));
  });

  it('in strict mode refuses a call of the wrong method; non-strict takes the next of the method asked', async () => {
    const strict = new FakeContentGenerator([streamed('a'), unary('b')]);
    await expect(strict.generateContent(request, signal)).rejects.toThrow(/Unexpected response type/);
    const loose = FakeContentGenerator.fromFile(
      file([JSON.stringify(streamed('a')), JSON.stringify(unary('b')), JSON.stringify(streamed('c'))]),
      { strict: false },
    );
    expect((await loose.generateContent(request, signal)).candidates?.[0]?.content?.parts?.[0]?.text).toBe(
      'b',
    );
    expect(await streamText(loose)).toBe('a');
    expect(await streamText(loose)).toBe('c');
    expect(loose.unconsumed).toBe(0);
  });

  it('names the bad line of a file', () => {
    const path = file([JSON.stringify(streamed('a')), '{"method": "generateContentStream", "response": [}']);
    expect(() => FakeContentGenerator.fromFile(path, { strict: true })).toThrow(/line 2 is not valid JSON/);
  });
});
