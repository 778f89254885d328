import type { SessionChange } from './session-types';

/**
 * Who hears what changed through the Session's API. A change to the conversation (the model, the
 * history, added context) is recorded before listeners hear of it, so a front end that reacts
 * never sees a change the session log lacks; a change outside the conversation (the approval
 * mode) is announced only.
 */
export class ChangeFeed {
  private readonly listeners = new Set<(change: SessionChange) => void>();

  /** `record` makes the conversation so far durable (the session's turn boundary). */
  constructor(private readonly record: () => void) {}

  /** Returns the unsubscribe. */
  subscribe(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A change to the conversation: recorded, then announced. */
  changed(change: SessionChange): void {
    this.record();
    this.announce(change);
  }

  /** A change the record does not keep: announced only. */
  announce(change: SessionChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
