/**
 * `session/list` and `session/delete` over kodo's recorded sessions. Sessions are kept per
 * project folder (`~/.kodo/sessions/<project>/`), so a listing is of one folder: the `cwd` the
 * client asks about, or the folder kodo was started in. Newest first, in pages; the cursor is the
 * position of the next page, as opaque text.
 */
import { isAbsolute } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { SessionStore, type SessionSummary } from '@kodo/core/engine';

const PAGE_SIZE = 50;

export function listRecordedSessions(
  request: acp.ListSessionsRequest,
  options: { defaultCwd: string; env: NodeJS.ProcessEnv },
): acp.ListSessionsResponse {
  const cwd = request.cwd ?? options.defaultCwd;
  if (!isAbsolute(cwd)) throw acp.RequestError.invalidParams(undefined, `cwd must be absolute: ${cwd}`);
  const start = request.cursor ? Number(request.cursor) : 0;
  if (!Number.isInteger(start) || start < 0) {
    throw acp.RequestError.invalidParams(undefined, `Not a cursor from this agent: ${request.cursor}`);
  }
  const sessions = new SessionStore({ projectRoot: cwd, env: options.env }).list().reverse();
  const page = sessions.slice(start, start + PAGE_SIZE);
  const next = start + page.length;
  return {
    sessions: page.map((summary) => sessionInfo(summary, cwd)),
    ...(next < sessions.length ? { nextCursor: String(next) } : {}),
  };
}

export function sessionInfo(summary: SessionSummary, cwd: string): acp.SessionInfo {
  return {
    sessionId: summary.id,
    cwd,
    title: summary.title,
    updatedAt: summary.lastUpdated.toISOString(),
  };
}

/**
 * Deletes a recorded session, looked for in the folders this connection has used (the request
 * names no folder). Returns false when none of them has it.
 */
export function deleteRecordedSession(
  sessionId: string,
  options: { cwds: Iterable<string>; env: NodeJS.ProcessEnv },
): boolean {
  for (const cwd of options.cwds) {
    const store = new SessionStore({ projectRoot: cwd, env: options.env });
    if (!store.findById(sessionId)) continue;
    store.delete(sessionId);
    return true;
  }
  return false;
}
