/** The replay, recording and debug-log generators, loaded only when a flag asks for one. */
export type ReplayGenerators = typeof import('./replay');

export function loadReplayGenerators(): Promise<ReplayGenerators> {
  return import('./replay');
}
