import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Content } from '../contracts/messages';
import type { ToolModelClient } from '../tools/tool';
import { projectHash } from '../utils/project-hash';

/** A durable fact the model proposed at the end of a session, waiting for the person's yes or no. */
export interface ProposedMemory {
  fact: string;
  sessionId: string;
  proposedAt: string;
}

/**
 * Auto-memory's inbox: facts proposed at the end of a session wait in
 * `<kodo home>/memory-inbox/<project hash>.json` (one file per project) until the person accepts
 * (then they are saved like `/memory add`) or drops each one in `/memory`. Nothing here writes a
 * memory file.
 */
export class MemoryInbox {
  readonly file: string;

  constructor(kodoHome: string, projectRoot: string) {
    this.file = join(kodoHome, 'memory-inbox', `${projectHash(projectRoot)}.json`);
  }

  list(): ProposedMemory[] {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return Array.isArray(parsed)
        ? parsed.filter((entry): entry is ProposedMemory => typeof entry?.fact === 'string')
        : [];
    } catch {
      return [];
    }
  }

  /** Adds facts not already waiting; how many were added. */
  add(facts: readonly string[], sessionId: string, now = new Date()): number {
    const waiting = this.list();
    const known = new Set(waiting.map((entry) => entry.fact.trim().toLowerCase()));
    const fresh = facts
      .map((fact) => fact.trim())
      .filter((fact) => fact !== '' && !known.has(fact.toLowerCase()));
    if (fresh.length === 0) return 0;
    this.write([...waiting, ...fresh.map((fact) => ({ fact, sessionId, proposedAt: now.toISOString() }))]);
    return fresh.length;
  }

  /** Takes the entry at 1-based `position` out of the inbox; undefined when there is none. */
  take(position: number): ProposedMemory | undefined {
    const waiting = this.list();
    const [taken] = waiting.splice(position - 1, 1);
    if (!taken || position < 1) return undefined;
    this.write(waiting);
    return taken;
  }

  private write(entries: ProposedMemory[]): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(entries, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.file);
  }
}

export const MEMORY_PROPOSAL_PROMPT = [
  'From the conversation above, list the durable facts worth remembering in later sessions of this project:',
  "the user's stated preferences and conventions, and stable facts about the project (commands, layout, rules).",
  'Leave out anything about this task only, anything temporary, secrets and credentials.',
  'Answer with only a JSON array of short sentences (at most 5), or [] when there is nothing durable.',
].join(' ');

/**
 * One small utility-model call at the end of a session: the durable facts the model would keep.
 * An answer that is not a JSON array of strings proposes nothing.
 */
export async function proposeMemories(
  model: ToolModelClient,
  history: readonly Content[],
  signal: AbortSignal,
): Promise<string[]> {
  if (!history.some((content) => content.role === 'model')) return [];
  const response = await model.generateContent(
    {
      contents: [...history, { role: 'user', parts: [{ text: MEMORY_PROPOSAL_PROMPT }] }],
      config: { responseJsonSchema: { type: 'array', items: { type: 'string' }, maxItems: 5 } },
    },
    signal,
  );
  const text = (response.candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? '').join('');
  try {
    const parsed = JSON.parse(text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '')) as unknown;
    return Array.isArray(parsed)
      ? parsed.filter((fact): fact is string => typeof fact === 'string' && fact.trim() !== '').slice(0, 5)
      : [];
  } catch {
    return [];
  }
}
