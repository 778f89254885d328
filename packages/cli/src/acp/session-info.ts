/**
 * What the editor's session list shows of a session (`session_info_update`): its title, the first
 * prompt with words on one line as `kodo --list-sessions` shows it, and when it was last active.
 */
import type * as acp from '@agentclientprotocol/sdk';

const TITLE_CHARS = 100;

export function sessionInfoUpdate(title: string | undefined, updatedAt: Date): acp.SessionUpdate {
  return {
    sessionUpdate: 'session_info_update',
    ...(title ? { title } : {}),
    updatedAt: updatedAt.toISOString(),
  };
}

/**
 * After a prompt: the activity time, and the title when this was the first prompt with words (an
 * image alone gives none). `titled.title` is what the client has been told.
 */
export async function announceActivity(
  titled: { title?: string },
  promptText: string,
  send: (update: acp.SessionUpdate) => Promise<void>,
): Promise<void> {
  const title = titled.title === undefined ? titleOf(promptText) : undefined;
  await send(sessionInfoUpdate(title, new Date())).catch(() => undefined);
  if (title) titled.title = title;
}

function titleOf(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}
