import type { Content } from '../../contracts/messages';
import type { ImportedFrom } from '../records';
import type { SessionSummary } from '../session-files';

/** The tools whose saved sessions kodo lists and imports. */
export type ForeignOrigin = ImportedFrom['origin'];

/** How the list and messages name each tool. */
export const ORIGIN_NAMES: Record<ForeignOrigin, string> = {
  gemini: 'Gemini CLI',
  claude: 'Claude Code',
  codex: 'Codex',
};

/** Another tool's session as the session list shows it; `file` is only ever read. */
export interface ForeignSessionSummary extends SessionSummary {
  origin: ForeignOrigin;
}

/** A file that looked like a session but could not be listed, and why (said once in the list). */
export interface SkippedSession {
  origin: ForeignOrigin;
  file: string;
  reason: string;
}

/** What one tool's sessions of a project are: the readable ones and the damaged ones. */
export interface ForeignListing {
  sessions: ForeignSessionSummary[];
  skipped: SkippedSession[];
}

/** A conversation read from another tool's file, in kodo's message model. */
export interface ImportedConversation {
  /** Prompts, answers, calls and results in order; not yet repaired (the importer does that). */
  history: Content[];
  /** The model the conversation last used, when the file says. */
  model?: string;
  /** What could not be read (damaged lines, a torn end), one sentence each. */
  warnings: string[];
}

/** One tool's session format: where its sessions of a project are, and how to read one. */
export interface ForeignSessionFormat {
  origin: ForeignOrigin;
  list(projectRoot: string, env: NodeJS.ProcessEnv): ForeignListing;
  read(file: string): Promise<ImportedConversation>;
}
