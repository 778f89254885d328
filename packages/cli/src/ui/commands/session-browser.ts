import { formatSessionList, loadForeignSessions, relativeTime, SessionStore } from '@kodo/core/engine';
import type { CommandContext } from './types';

/**
 * `latest`, a number of the session list, or a UUID (the ids kodo and the other tools give):
 * other words stay unknown subcommands of `/chat`.
 */
export function isSessionIdentifier(word: string): boolean {
  return word === 'latest' || /^\d+$/.test(word) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f-]{4,}$/i.test(word);
}

/**
 * `/resume` (or `/chat`) without arguments: the project's sessions, kodo's and other tools'
 * (newest first, as `--list-sessions` numbers them), in a menu; the chosen one is continued in
 * place of the current session. Another tool's session is imported first, its file only read.
 */
export async function browseSessions(context: CommandContext): Promise<void> {
  const { addItem, session } = context;
  if (!context.resumeSession) {
    addItem({ kind: 'info', tone: 'warning', text: 'Resuming another session is not available here.' });
    return;
  }
  const store = new SessionStore({ projectRoot: context.cwd, env: context.env });
  const { listAllSessions } = await loadForeignSessions();
  const { sessions, skipped } = listAllSessions(store, context.env);
  for (const entry of skipped) {
    addItem({ kind: 'info', tone: 'warning', text: `Skipped ${entry.file}: ${entry.reason}.` });
  }
  const others = sessions.filter((listed) => listed.id !== session.id);
  if (others.length === 0) {
    addItem({ kind: 'info', tone: 'info', text: formatSessionList([]).trim() });
    return;
  }
  const items = sessions
    .map((listed, index) => ({
      value: String(index + 1),
      label: `${index + 1}. ${listed.origin ? `[${listed.origin}] ` : ''}${listed.title}`,
      description: `${relativeTime(listed.lastUpdated)}${listed.id === session.id ? ', current' : ''}`,
      id: listed.id,
    }))
    .filter((item) => item.id !== session.id)
    .reverse()
    .map(({ id: _id, ...item }) => item);
  const picked = await context.choose({
    title: 'Resume a session (Enter continues it, Esc keeps this one)',
    items,
  });
  if (picked === undefined) return;
  await context.resumeSession(picked);
}
