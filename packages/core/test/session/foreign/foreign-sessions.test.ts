import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { type ForeignTool, FOREIGN_SESSION_FACTS as facts } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toAnthropicRequestBody } from '../../../src/llm/providers/anthropic-convert';
import { historyFor } from '../../../src/llm/providers/router';
import {
  importForeignSession,
  isForeign,
  listAllSessions,
  resolveListedSession,
} from '../../../src/session/foreign/foreign-sessions';
import { loadSession } from '../../../src/session/resume';
import { formatSessionList } from '../../../src/session/session-files';
import { InvalidSessionError } from '../../../src/session/store';
import { foreignHome } from './helpers';

let home: ReturnType<typeof foreignHome>;
beforeEach(() => {
  home = foreignHome();
});
afterEach(() => home.cleanup());

const KODO_EARLY = '11111111-aaaa-4aaa-8aaa-000000000001';
const KODO_LATE = '22222222-bbbb-4bbb-8bbb-000000000002';

/** Bytes and mtime of every installed session file, to show that nothing touched them. */
function snapshot() {
  return Object.values(home.files).map((file) => ({
    file,
    bytes: readFileSync(file!, 'utf8'),
    mtimeMs: statSync(file!).mtimeMs,
  }));
}

describe('the session list', () => {
  beforeEach(() => {
    // The recorded sessions started on 2026-12-02 between 08:42 and 08:43 (gemini, claude, codex).
    home.kodoSession(KODO_LATE, '2026-12-02T09:00:00.000Z', 'later kodo work');
    home.kodoSession(KODO_EARLY, '2026-12-01T09:00:00.000Z', 'earlier kodo work');
  });

  it("sorts the other tools' sessions by start time with kodo's own, marked by origin", () => {
    const { sessions, skipped } = listAllSessions(home.store, home.env);
    expect(skipped).toEqual([]);
    expect(sessions.map((session) => [session.origin ?? 'kodo', session.id])).toEqual([
      ['kodo', KODO_EARLY],
      ['gemini', facts.ids.gemini],
      ['claude', facts.ids.claude],
      ['codex', facts.ids.codex],
      ['kodo', KODO_LATE],
    ]);
    const lines = formatSessionList(sessions, { now: new Date('2026-12-03T09:00:00Z') }).split('\n');
    expect(lines[1]).toBe('Available sessions for this project (5):');
    expect(lines[2]).toMatch(/^ {2}1\. earlier kodo work \(.+\) \[11111111-/);
    expect(lines[3]).toMatch(
      new RegExp(`^  2\\. \\[gemini\\] ${facts.prompt} \\(.+\\) \\[${facts.ids.gemini}\\]$`),
    );
    expect(lines[4]).toContain(`3. [claude] ${facts.prompt}`);
    expect(lines[5]).toContain(`4. [codex] ${facts.prompt}`);
  });

  it('resolves latest, an index of the whole list, and any tool’s session id', () => {
    expect(resolveListedSession('latest', home.store, home.env)?.id).toBe(KODO_LATE);
    expect(resolveListedSession('3', home.store, home.env)).toMatchObject({
      origin: 'claude',
      id: facts.ids.claude,
    });
    expect(resolveListedSession(facts.ids.codex, home.store, home.env)).toMatchObject({ origin: 'codex' });
    expect(resolveListedSession(KODO_EARLY, home.store, home.env)?.origin).toBeUndefined();
    expect(() => resolveListedSession('6', home.store, home.env)).toThrow(InvalidSessionError);
    expect(() => resolveListedSession('no-such-id', home.store, home.env)).toThrow(
      /^Invalid session identifier "no-such-id"\./,
    );
  });

  it("is the other tools' sessions alone when kodo has none, and latest is the newest of them", () => {
    const empty = foreignHome(['gemini', 'claude']);
    try {
      expect(resolveListedSession('latest', empty.store, empty.env)).toMatchObject({ origin: 'claude' });
      expect(listAllSessions(empty.store, empty.env).sessions).toHaveLength(2);
    } finally {
      empty.cleanup();
    }
  });
});

describe('importing', () => {
  for (const tool of ['gemini', 'claude', 'codex'] as ForeignTool[]) {
    it(`writes a ${tool} session as a new kodo session that resumes to the same history, and leaves the original alone`, async () => {
      const before = snapshot();
      const session = resolveListedSession(facts.ids[tool], home.store, home.env)!;
      expect(isForeign(session)).toBe(true);
      if (!isForeign(session)) return;
      const { summary, warnings } = await importForeignSession(session, home.store, {
        sessionId: 'imported-1',
      });
      expect(warnings).toEqual([]);
      expect(summary).toMatchObject({ id: 'imported-1', title: facts.prompt });
      expect(summary.file.startsWith(home.store.dir)).toBe(true);

      const loaded = await loadSession(summary.file);
      expect(loaded.metadata.importedFrom).toEqual({
        origin: tool,
        sessionId: facts.ids[tool],
        file: session.file,
      });
      const roles = loaded.history.map((content) => content.role);
      expect(roles).toEqual(['user', 'model', 'user', 'model']);
      expect(loaded.history[2]?.parts[0]?.functionResponse?.id).toBe(
        loaded.history[1]?.parts.at(-1)?.functionCall?.id,
      );
      expect(JSON.stringify(loaded.history)).toContain(facts.answer);
      // A normal kodo session now: listed as kodo's, newest, resumable by id.
      const listed = listAllSessions(home.store, home.env).sessions;
      expect(listed.at(-1)?.id).toBe('imported-1');
      expect(listed.at(-1)?.origin).toBeUndefined();
      expect(home.store.findById('imported-1')?.file).toBe(summary.file);
      expect(snapshot()).toEqual(before);
    });
  }

  it("keeps Claude Code's signed thinking for Anthropic models only", async () => {
    const session = resolveListedSession(facts.ids.claude, home.store, home.env);
    if (!session || !isForeign(session)) throw new Error('no claude session');
    const { summary } = await importForeignSession(session, home.store, { sessionId: 'imported-2' });
    const { history } = await loadSession(summary.file);
    const anthropic = toAnthropicRequestBody(
      { model: 'claude-sonnet-4-5', contents: history },
      { stream: true },
    );
    expect(JSON.stringify(anthropic.messages)).toContain(
      JSON.stringify({ type: 'thinking', thinking: facts.thinking, signature: 'c2lnbmF0dXJlLW9uZQ==' }),
    );
    const gemini = JSON.stringify(historyFor('gemini', history));
    expect(gemini).toContain(facts.thinking);
    expect(gemini).not.toContain('c2lnbmF0dXJl');
  });
});

describe('damaged files', () => {
  it('lists a file whose head is not the format as skipped with a reason, and the others as usual', () => {
    home.write('.claude/projects/x/ignored.jsonl', 'nonsense');
    const claudeDir = basename(home.files.claude!.slice(0, home.files.claude!.lastIndexOf('/')));
    home.write(
      `.claude/projects/${claudeDir}/0badf11e-0000-4000-8000-000000000000.jsonl`,
      '{"type":"user","mess',
    );
    home.write('.gemini/tmp/project/chats/session-2026-12-02T10-00-deadbeef.jsonl', 'garbage\n{"id":"x"}\n');
    const { sessions, skipped } = listAllSessions(home.store, home.env);
    expect(sessions).toHaveLength(3);
    expect(skipped.map((entry) => [entry.origin, basename(entry.file), entry.reason])).toEqual([
      [
        'gemini',
        'session-2026-12-02T10-00-deadbeef.jsonl',
        'its first line is not a session header (a damaged file?)',
      ],
      [
        'claude',
        '0badf11e-0000-4000-8000-000000000000.jsonl',
        'it holds no complete record (a damaged file?)',
      ],
    ]);
  });

  it('imports a session cut off mid-line up to the damage, and says so', async () => {
    for (const tool of ['gemini', 'claude', 'codex'] as ForeignTool[]) {
      const file = home.files[tool]!;
      const text = readFileSync(file, 'utf8');
      // Cut inside the first record that holds the answer: the session stops at the tool result.
      const cut = text.indexOf(facts.answer);
      home.write(file.slice(home.home.length + 1), text.slice(0, cut + 10));
      const session = resolveListedSession(facts.ids[tool], home.store, home.env);
      if (!session || !isForeign(session)) throw new Error(`no ${tool} session`);
      const before = snapshot();
      const { summary, warnings } = await importForeignSession(session, home.store, {
        sessionId: `cut-${tool}`,
      });
      expect(warnings.join('\n')).toMatch(/Skipped an incomplete last record/);
      const { history } = await loadSession(summary.file);
      expect(JSON.stringify(history)).toContain(facts.note);
      expect(JSON.stringify(history)).not.toContain(facts.answer);
      // Every call still has its answer.
      const calls = history.flatMap((content) => content.parts.filter((part) => part.functionCall));
      const responses = history.flatMap((content) => content.parts.filter((part) => part.functionResponse));
      expect(responses).toHaveLength(calls.length);
      expect(snapshot()).toEqual(before);
    }
  });

  it('skips unreadable lines in the middle and imports the rest', async () => {
    const file = home.files.codex!;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(5, 0, '{"type":"response_item", broken');
    home.write(file.slice(home.home.length + 1), lines.join('\n'));
    const session = resolveListedSession(facts.ids.codex, home.store, home.env);
    if (!session || !isForeign(session)) throw new Error('no codex session');
    const { summary, warnings } = await importForeignSession(session, home.store, { sessionId: 'mid' });
    expect(warnings).toEqual([`Skipped 1 unreadable record(s) in ${basename(file)}.`]);
    expect(JSON.stringify((await loadSession(summary.file)).history)).toContain(facts.answer);
  });
});
