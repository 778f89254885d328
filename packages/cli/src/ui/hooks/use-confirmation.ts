import { useSyncExternalStore } from 'react';
import type { ConfirmationBridge, PendingConfirmation } from '../confirmation-bridge';

/** The approval request to show, re-rendering when the queue changes. */
export function useConfirmation(bridge: ConfirmationBridge): PendingConfirmation | undefined {
  return useSyncExternalStore(
    (listener) => bridge.subscribe(listener),
    () => bridge.current(),
  );
}
