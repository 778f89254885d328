import { type Content, MemoryInbox, proposeMemories, type Session, type Settings } from '@kodo/core/engine';

/**
 * Auto-memory: at the end of a session, one small call asks the model for durable facts, which
 * wait in the project's inbox until the person accepts or drops each in `/memory`. On by default
 * in interactive sessions, off headless; `memory.inbox` in settings turns it on or off for both,
 * and `KODO_AUTO_MEMORY=1|0` wins over the setting (tests, one-off runs).
 */
export function autoMemoryOn(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  run: { interactive: boolean },
): boolean {
  if (env.KODO_AUTO_MEMORY === '1') return true;
  if (env.KODO_AUTO_MEMORY === '0') return false;
  return settings.memory?.inbox ?? run.interactive;
}

/**
 * Whether a session has anything durable to learn from: at least two prompts, or one that made
 * the model use a tool. A greeting or one question answered from memory is skipped, so most
 * short sessions exit without the call.
 */
export function worthProposing(history: readonly Content[]): boolean {
  if (!history.some((content) => content.role === 'model')) return false;
  const prompts = history.filter(
    (content) => content.role === 'user' && content.parts.some((part) => part.text?.trim()),
  ).length;
  const usedTools = history.some((content) => content.parts.some((part) => part.functionCall));
  return prompts >= 2 || usedTools;
}

/** How long the end of a session may wait for the proposal; past it, nothing is proposed. */
export const PROPOSAL_LIMIT_MS = 5_000;

/**
 * Proposes the session's durable facts to the inbox; how many were added. Bounded (`limitMs`) and
 * abortable (`signal`: Ctrl+C at exit); a failed, slow or skipped call proposes nothing.
 */
export async function proposeToInbox(
  session: Session,
  where: { kodoHome: string; projectRoot: string },
  options: { signal?: AbortSignal; limitMs?: number } = {},
): Promise<number> {
  const model = session.toolContext.model;
  const history = session.history();
  if (!model || !worthProposing(history)) return 0;
  const bound = AbortSignal.timeout(options.limitMs ?? PROPOSAL_LIMIT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, bound]) : bound;
  try {
    const facts = await abortable(proposeMemories(model, history, signal), signal);
    return new MemoryInbox(where.kodoHome, where.projectRoot).add(facts, session.id);
  } catch {
    return 0;
  }
}

/** Settles when `signal` aborts even if the call does not listen to it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
