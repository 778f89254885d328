import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEMORY_PROPOSAL_PROMPT, MemoryInbox, proposeMemories } from '../../src/context/memory-inbox';
import type { GenerateRequest } from '../../src/contracts/messages';
import type { ToolModelClient } from '../../src/tools/tool';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kodo-inbox-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const modelAnswering = (text: string, seen: Omit<GenerateRequest, 'model'>[] = []): ToolModelClient => ({
  provider: 'test',
  model: 'm',
  async generateContent(request) {
    seen.push(request);
    return { candidates: [{ content: { role: 'model', parts: [{ text }] } }] };
  },
});

describe('MemoryInbox', () => {
  it('keeps proposals per project under kodo’s home, without duplicates, until taken', () => {
    const inbox = new MemoryInbox(join(dir, 'home'), '/work/project-a');
    expect(inbox.list()).toEqual([]);
    expect(existsSync(inbox.file)).toBe(false);
    expect(
      inbox.add(['Use pnpm, not npm.', 'Tests live in test/.'], 's1', new Date('2026-01-01T00:00:00Z')),
    ).toBe(2);
    expect(inbox.add(['use pnpm, not npm.', ' ', 'Run biome before commits.'], 's2')).toBe(1);
    expect(inbox.file.startsWith(join(dir, 'home', 'memory-inbox'))).toBe(true);
    expect(inbox.list().map((entry) => entry.fact)).toEqual([
      'Use pnpm, not npm.',
      'Tests live in test/.',
      'Run biome before commits.',
    ]);
    expect(inbox.list()[0]).toEqual({
      fact: 'Use pnpm, not npm.',
      sessionId: 's1',
      proposedAt: '2026-01-01T00:00:00.000Z',
    });
    // Another project has its own inbox.
    expect(new MemoryInbox(join(dir, 'home'), '/work/project-b').list()).toEqual([]);
    expect(inbox.take(2)?.fact).toBe('Tests live in test/.');
    expect(inbox.take(9)).toBeUndefined();
    expect(inbox.take(0)).toBeUndefined();
    expect(inbox.list().map((entry) => entry.fact)).toEqual([
      'Use pnpm, not npm.',
      'Run biome before commits.',
    ]);
  });
});

describe('proposeMemories', () => {
  const history = [
    { role: 'user' as const, parts: [{ text: 'we always use pnpm here' }] },
    { role: 'model' as const, parts: [{ text: 'Noted.' }] },
  ];

  it('asks the utility model once, for a JSON array, after the conversation', async () => {
    const seen: Omit<GenerateRequest, 'model'>[] = [];
    const facts = await proposeMemories(
      modelAnswering('["Use pnpm, not npm."]', seen),
      history,
      new AbortController().signal,
    );
    expect(facts).toEqual(['Use pnpm, not npm.']);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: MEMORY_PROPOSAL_PROMPT }] });
    expect(seen[0]!.config?.responseJsonSchema).toMatchObject({ type: 'array' });
  });

  it('proposes nothing for an answer that is not an array of strings, or a session without answers', async () => {
    const signal = new AbortController().signal;
    expect(await proposeMemories(modelAnswering('I think pnpm'), history, signal)).toEqual([]);
    expect(await proposeMemories(modelAnswering('{"a":1}'), history, signal)).toEqual([]);
    const seen: Omit<GenerateRequest, 'model'>[] = [];
    expect(await proposeMemories(modelAnswering('["x"]', seen), [history[0]!], signal)).toEqual([]);
    expect(seen).toHaveLength(0);
  });
});
