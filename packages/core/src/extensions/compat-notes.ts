import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kodoHome } from '../config/paths';
import { isRecord } from '../utils/is-record';
import { writePrivateFile } from '../utils/private-file';

// Some things a Claude Code plugin asks for kodo cannot give (an agent's `NotebookEdit` tool,
// say). Nobody can fix that by editing their setup, so repeating it on every run is noise: each
// such note is shown once — at `kodo extensions install`, or the first run that finds the
// plugin — and kept in `<kodo home>/compat-notes.json`, where a later check (`kodo doctor`) and
// the person can read every one of them.

const FILE = 'compat-notes.json';
const VERSION = 1;

export interface CompatNote {
  text: string;
  /** When it was first reported (ISO 8601). */
  firstSeen: string;
}

export function compatNotesFile(env: NodeJS.ProcessEnv): string {
  return join(kodoHome(env), FILE);
}

/** Every note reported so far; an unreadable or hand-broken file counts as none. */
export function readCompatNotes(env: NodeJS.ProcessEnv): CompatNote[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(compatNotesFile(env), 'utf8'));
  } catch {
    return [];
  }
  if (!isRecord(data) || !Array.isArray(data.notes)) return [];
  return data.notes.filter(
    (note): note is CompatNote =>
      isRecord(note) && typeof note.text === 'string' && typeof note.firstSeen === 'string',
  );
}

/**
 * Records `lines` and returns those not reported before, which the caller shows now. When the
 * file cannot be written the lines are all returned: shown again next time rather than lost.
 */
export function recordCompatNotes(
  env: NodeJS.ProcessEnv,
  lines: readonly string[],
  now: () => Date = () => new Date(),
): string[] {
  if (lines.length === 0) return [];
  const known = readCompatNotes(env);
  const seen = new Set(known.map((note) => note.text));
  const fresh = [...new Set(lines)].filter((line) => !seen.has(line));
  if (fresh.length === 0) return [];
  const firstSeen = now().toISOString();
  const notes = [...known, ...fresh.map((text) => ({ text, firstSeen }))];
  try {
    writePrivateFile(compatNotesFile(env), `${JSON.stringify({ version: VERSION, notes }, null, 2)}\n`);
  } catch {
    return [...lines];
  }
  return fresh;
}
