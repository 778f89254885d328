import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../src/agents/agent-file';
import { compatNotesFile, readCompatNotes, recordCompatNotes } from '../../src/extensions/compat-notes';

/** Issue R: what kodo cannot give a plugin is said once and kept where `kodo doctor` can read it. */
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
function home(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), 'kodo-notes-'));
  homes.push(dir);
  return { KODO_HOME: dir };
}

describe('compat notes', () => {
  it('returns each note the first time only, and keeps them all with when they were first seen', () => {
    const env = home();
    const now = () => new Date('2026-12-02T10:00:00Z');
    expect(recordCompatNotes(env, ['a', 'b', 'a'], now)).toEqual(['a', 'b']);
    expect(recordCompatNotes(env, ['b', 'c'], now)).toEqual(['c']);
    expect(recordCompatNotes(env, ['a', 'b', 'c'], now)).toEqual([]);
    expect(readCompatNotes(env)).toEqual([
      { text: 'a', firstSeen: '2026-12-02T10:00:00.000Z' },
      { text: 'b', firstSeen: '2026-12-02T10:00:00.000Z' },
      { text: 'c', firstSeen: '2026-12-02T10:00:00.000Z' },
    ]);
    expect(JSON.parse(readFileSync(compatNotesFile(env), 'utf8')).version).toBe(1);
  });

  // Root writes into a read-only folder anyway.
  it.skipIf(process.getuid?.() === 0)(
    'says them again rather than losing them when the file cannot be written',
    () => {
      const env = home();
      writeFileSync(compatNotesFile(env), '{"notes": []}');
      chmodSync(env.KODO_HOME!, 0o500);
      try {
        expect(recordCompatNotes(env, ['x'])).toEqual(['x']);
        expect(recordCompatNotes(env, ['x'])).toEqual(['x']);
      } finally {
        chmodSync(env.KODO_HOME!, 0o700);
      }
    },
  );

  it("a plugin agent's unmappable tool is a note, the person's own agent's a warning", async () => {
    const text = '---\nname: explorer\ndescription: Explores\ntools: Read, NotebookRead\n---\nGo.\n';
    const plugin = await parseAgentFile(text, {
      scope: 'extension',
      path: '/p/agents/explorer.md',
      format: 'claude',
      namePrefix: 'feature-dev',
      extensionName: 'feature-dev',
    });
    expect(plugin.warnings).toEqual([]);
    expect(plugin.notes).toEqual([
      `Plugin "feature-dev" agent "feature-dev:explorer": tools entry "NotebookRead" dropped: kodo has no tool like Claude Code's NotebookRead.`,
    ]);
    expect(plugin.definition?.tools).toEqual(['read_file']);
    const own = await parseAgentFile(text, {
      scope: 'user',
      path: '/h/.claude/agents/explorer.md',
      format: 'claude',
    });
    expect(own.notes).toBeUndefined();
    expect(own.warnings).toEqual([
      `/h/.claude/agents/explorer.md: tools entry "NotebookRead" dropped: kodo has no tool like Claude Code's NotebookRead.`,
    ]);
  });
});
