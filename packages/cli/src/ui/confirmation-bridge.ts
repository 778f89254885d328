import type { ConfirmationRequest, ConfirmationResponse, ConfirmHandler } from '@kodo/core/engine';

export interface PendingConfirmation {
  request: ConfirmationRequest;
  respond(response: ConfirmationResponse): void;
}

/**
 * Connects the scheduler's confirm handler (a promise per call) to the dialog (React state).
 * Requests queue up (a wave of calls may ask together); the dialog shows the first one. A request
 * whose turn is cancelled answers itself with `cancel` and leaves the queue.
 */
export class ConfirmationBridge {
  private queue: PendingConfirmation[] = [];
  private readonly listeners = new Set<() => void>();

  readonly handler: ConfirmHandler = (request) =>
    new Promise<ConfirmationResponse>((resolve) => {
      let settled = false;
      const entry: PendingConfirmation = {
        request,
        respond: (response) => {
          if (settled) return;
          settled = true;
          request.signal.removeEventListener('abort', onAbort);
          this.queue = this.queue.filter((pending) => pending !== entry);
          this.notify();
          resolve(response);
        },
      };
      const onAbort = () => entry.respond({ outcome: 'cancel' });
      if (request.signal.aborted) {
        resolve({ outcome: 'cancel' });
        return;
      }
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.queue = [...this.queue, entry];
      this.notify();
    });

  /** The request the dialog should show now. */
  current(): PendingConfirmation | undefined {
    return this.queue[0];
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
