/** Other tools' sessions (listing, importing), loaded only by a run that lists or resumes sessions. */
export type ForeignSessions = typeof import('./foreign-sessions');

export function loadForeignSessions(): Promise<ForeignSessions> {
  return import('./foreign-sessions');
}
