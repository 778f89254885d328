import type { ApprovalMode, Session } from '@kodo/core/engine';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { StatusLineRunner } from '../status/status-command';
import { statusLineInput } from '../status/status-input';
import type { NewHistoryItem } from '../types';

const noSubscription = () => () => undefined;
const emptyText = () => '';

/**
 * The command-backed status line (settings `statusLine`): feeds the runner the session's state
 * whenever something it shows changed, says once when the command fails, and returns the text
 * to show ('' when there is none).
 */
export function useStatusLine(
  runner: StatusLineRunner | undefined,
  state: {
    session: Session;
    cwd: string;
    version: string;
    approvalMode: ApprovalMode;
    sandbox: string | undefined;
    busy: boolean;
    lastUsage: { promptTokenCount?: number; candidatesTokenCount?: number } | undefined;
    addItem(item: NewHistoryItem): void;
  },
): string {
  const { session, addItem } = state;
  const text = useSyncExternalStore(runner?.subscribe ?? noSubscription, runner?.current ?? emptyText);
  const startedAt = useRef(Date.now());
  useEffect(
    () => runner?.onFirstFailure((message) => addItem({ kind: 'info', tone: 'warning', text: message })),
    [runner, addItem],
  );
  const totals = session.statsTotals();
  const key = `${session.id}|${session.model}|${state.approvalMode}|${state.busy}|${totals.requests}|${totals.tokens.prompt}|${state.lastUsage?.promptTokenCount ?? ''}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: key sums up what the input holds
  useEffect(() => {
    runner?.update(
      statusLineInput(session, {
        cwd: state.cwd,
        version: state.version,
        startedAt: startedAt.current,
        now: Date.now(),
        approvalMode: state.approvalMode,
        sandbox: state.sandbox,
        lastUsage: state.lastUsage,
      }),
    );
  }, [runner, key]);
  return text;
}
