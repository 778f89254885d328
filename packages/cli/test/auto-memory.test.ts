import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Content, MemoryInbox, type Session, type ToolModelClient } from '@kodo/core/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autoMemoryOn, proposeToInbox, worthProposing } from '../src/shared/auto-memory';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'kodo-auto-memory-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const TWO_PROMPTS = [user('use pnpm here'), model('ok'), user('run the tests'), model('done')];

/** A session as proposeToInbox reads it: its model, history and id. */
function fakeSession(history: Content[], client: ToolModelClient): Session {
  return { id: 's1', history: () => history, oneShotModel: () => client } as unknown as Session;
}

function answering(text: string): ToolModelClient & { calls: number } {
  const client = {
    provider: 'fake',
    model: 'm',
    calls: 0,
    async generateContent() {
      client.calls += 1;
      return { candidates: [{ content: { role: 'model', parts: [{ text }] } }] };
    },
  };
  return client;
}

/** A model that never answers (and ignores its signal): only the bound ends the wait. */
const silent: ToolModelClient = {
  provider: 'fake',
  model: 'm',
  generateContent: () => new Promise(() => {}),
};

describe('auto-memory', () => {
  it('is on for interactive sessions and off headless by default; memory.inbox and KODO_AUTO_MEMORY decide otherwise', () => {
    expect(autoMemoryOn({}, {}, { interactive: true })).toBe(true);
    expect(autoMemoryOn({}, {}, { interactive: false })).toBe(false);
    expect(autoMemoryOn({ memory: { inbox: false } }, {}, { interactive: true })).toBe(false);
    expect(autoMemoryOn({ memory: { inbox: true } }, {}, { interactive: false })).toBe(true);
    expect(autoMemoryOn({ memory: { inbox: true } }, { KODO_AUTO_MEMORY: '0' }, { interactive: true })).toBe(
      false,
    );
    expect(autoMemoryOn({}, { KODO_AUTO_MEMORY: '1' }, { interactive: false })).toBe(true);
  });

  it('skips trivial sessions: one prompt answered without a tool', () => {
    expect(worthProposing([])).toBe(false);
    expect(worthProposing([user('hi'), model('Hello!')])).toBe(false);
    expect(worthProposing(TWO_PROMPTS)).toBe(true);
    const withTool: Content[] = [
      user('fix it'),
      { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: {} } }] },
      model('fixed'),
    ];
    expect(worthProposing(withTool)).toBe(true);
  });

  it('puts the proposed facts in the inbox, and makes no call for a trivial session', async () => {
    const client = answering('["Use pnpm, not npm."]');
    const where = { kodoHome: home, projectRoot: '/p' };
    expect(await proposeToInbox(fakeSession([user('hi'), model('Hello')], client), where)).toBe(0);
    expect(client.calls).toBe(0);
    expect(await proposeToInbox(fakeSession(TWO_PROMPTS, client), where)).toBe(1);
    expect(new MemoryInbox(home, '/p').list().map((entry) => entry.fact)).toEqual(['Use pnpm, not npm.']);
  });

  it('is bounded and abortable: a model that never answers proposes nothing', async () => {
    const where = { kodoHome: home, projectRoot: '/p' };
    expect(await proposeToInbox(fakeSession(TWO_PROMPTS, silent), where, { limitMs: 20 })).toBe(0);
    const skip = new AbortController();
    const pending = proposeToInbox(fakeSession(TWO_PROMPTS, silent), where, {
      signal: skip.signal,
      limitMs: 60_000,
    });
    skip.abort();
    expect(await pending).toBe(0);
    expect(new MemoryInbox(home, '/p').list()).toEqual([]);
  });
});
