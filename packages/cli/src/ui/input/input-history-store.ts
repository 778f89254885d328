import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** How many prompts are kept across sessions. */
export const INPUT_HISTORY_LIMIT = 500;

/**
 * The prompts the person typed, kept across sessions in `~/.kodo/input-history.jsonl` (one JSON
 * string a line, oldest first), bounded to the last INPUT_HISTORY_LIMIT entries. Each save
 * re-reads the file and replaces it atomically, so two kodo sessions do not lose each other's
 * entries. A missing or damaged file is an empty history, never an error.
 */
export class InputHistoryStore {
  constructor(
    private readonly path: string,
    private readonly limit = INPUT_HISTORY_LIMIT,
  ) {}

  load(): string[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return [];
    }
    const entries: string[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value === 'string' && value !== '') entries.push(value);
      } catch {
        // A torn line (e.g. a crash mid-write by an older version) is skipped.
      }
    }
    return entries.slice(-this.limit);
  }

  /** Appends an entry (a repeat of the latest one is not stored twice); returns the new list. */
  add(entry: string): string[] {
    const entries = this.load();
    if (entry.trim() === '' || entries.at(-1) === entry) return entries;
    const next = [...entries, entry].slice(-this.limit);
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      const temp = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temp, `${next.map((value) => JSON.stringify(value)).join('\n')}\n`, { mode: 0o600 });
      renameSync(temp, this.path);
    } catch {
      // History is a convenience: a read-only home must not break the prompt.
    }
    return next;
  }
}
