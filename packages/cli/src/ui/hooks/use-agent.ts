import type { AgentEvent, Part, Session, UsageMetadata } from '@kodo/core/engine';
import { batchedUpdates } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type CallDescriber, type RetryNotice, TurnAccumulator } from '../turn-accumulator';
import type { LiveBlock, NewHistoryItem } from '../types';
import { FrameCoalescer } from './frame-coalescer';

/**
 * The live turn is redrawn at most this often while events stream in; the first event after a
 * quiet spell is drawn at once (FrameCoalescer).
 */
export const LIVE_THROTTLE_MS = 50;

/** Events the person must see at once (an approval request, a call starting). */
const URGENT = new Set<AgentEvent['type']>([
  'tool_call_confirmation',
  'tool_call_request',
  'tool_call_response',
  'steering',
]);

export interface AgentState {
  live: LiveBlock[];
  busy: boolean;
  startedAt: number;
  retry: RetryNotice | undefined;
  /** Date.now() since when the model has been asked and has not answered yet. */
  waitingSince: number | undefined;
  lastUsage: UsageMetadata | undefined;
  /** Sends a prompt and streams the turn; resolves when it is over. */
  send(input: string | Part[]): Promise<void>;
  /**
   * Runs work outside a model turn that reports AgentEvents (a `!command` through core's
   * `runShellLine`) as the request in progress: its calls are drawn live, Esc aborts its signal,
   * and a throw becomes an error notice (then it resolves to undefined).
   */
  track<R>(
    work: (signal: AbortSignal, onEvent: (event: AgentEvent) => void) => Promise<R>,
  ): Promise<R | undefined>;
  cancel(): void;
}

interface Options {
  session: Session;
  describe: CallDescriber;
  /** Receives items that became final, in order. */
  onCommit(items: NewHistoryItem[]): void;
  /** A step took a steering line (it is in the transcript now). */
  onSteered?(text: string): void;
}

/**
 * Drives the Session for the UI: one AbortController per request, AgentEvents folded by a
 * TurnAccumulator, and the live region redrawn at most every LIVE_THROTTLE_MS (tokens arrive far
 * faster than anyone reads; the first token is drawn at once), while final items go to the
 * static history.
 */
export function useAgent({ session, describe, onCommit, onSteered }: Options): AgentState {
  const [live, setLive] = useState<LiveBlock[]>([]);
  const [busy, setBusy] = useState(false);
  const [startedAt, setStartedAt] = useState(0);
  const [retry, setRetry] = useState<RetryNotice | undefined>(undefined);
  const [waitingSince, setWaitingSince] = useState<number | undefined>(undefined);
  const [lastUsage, setLastUsage] = useState<UsageMetadata | undefined>(undefined);
  const controller = useRef<AbortController | undefined>(undefined);
  const frames = useRef<FrameCoalescer | undefined>(undefined);
  const commit = useRef(onCommit);
  commit.current = onCommit;
  const steered = useRef(onSteered);
  steered.current = onSteered;

  useEffect(
    () => () => {
      frames.current?.cancel();
      controller.current?.abort();
    },
    [],
  );

  /** Folds the events `work` reports into the live region and the history until it is over. */
  const observe = useCallback(
    async <R>(
      work: (onEvent: (event: AgentEvent) => void) => Promise<R>,
      accumulator: TurnAccumulator,
    ): Promise<R | undefined> => {
      // One commit per frame: React's legacy root would render and lay out after each update.
      const flush = () =>
        batchedUpdates(() => {
          const items = accumulator.drainCommitted();
          if (items.length > 0) commit.current(items);
          setLive(accumulator.live());
          setRetry(accumulator.retry);
          setWaitingSince(accumulator.waitingSince);
          if (accumulator.lastUsage) setLastUsage(accumulator.lastUsage);
        });
      frames.current?.cancel();
      const coalescer = new FrameCoalescer(flush, LIVE_THROTTLE_MS);
      frames.current = coalescer;
      let streamingText = false;
      const onEvent = (event: AgentEvent) => {
        accumulator.apply(event);
        if (event.type === 'steering') steered.current?.(event.text);
        const text = event.type === 'content' || event.type === 'thought';
        // The first text of a reply is drawn at once, not held for the rest of an interval
        // that started with some earlier event (the request going out, a tool finishing).
        if (URGENT.has(event.type) || event.type === 'retry' || (text && !streamingText)) {
          coalescer.flushNow();
        } else coalescer.request();
        streamingText = text || (streamingText && event.type === 'citation');
      };
      let result: R | undefined;
      setWaitingSince(accumulator.waitingSince);
      try {
        result = await work(onEvent);
      } catch (error) {
        accumulator.notice(`Unexpected error: ${(error as Error)?.message ?? String(error)}`, 'error');
      }
      accumulator.end();
      coalescer.flushNow();
      return result;
    },
    [],
  );

  /** observe() for a stream: each event it yields, then what it returns. */
  const drive = useCallback(
    <R>(stream: AsyncGenerator<AgentEvent, R>, accumulator: TurnAccumulator): Promise<R | undefined> =>
      observe(async (onEvent) => {
        let next = await stream.next();
        while (!next.done) {
          onEvent(next.value);
          next = await stream.next();
        }
        return next.value;
      }, accumulator),
    [observe],
  );

  const begin = useCallback(() => {
    const abort = new AbortController();
    controller.current = abort;
    setBusy(true);
    setStartedAt(Date.now());
    return abort;
  }, []);

  const finish = useCallback((abort: AbortController) => {
    if (controller.current === abort) controller.current = undefined;
    setBusy(false);
  }, []);

  const send = useCallback(
    async (input: string | Part[]) => {
      const abort = begin();
      try {
        await drive(session.sendMessage(input, abort.signal), new TurnAccumulator(describe));
      } finally {
        finish(abort);
      }
    },
    [session, describe, drive, begin, finish],
  );

  const track = useCallback(
    async <R>(work: (signal: AbortSignal, onEvent: (event: AgentEvent) => void) => Promise<R>) => {
      const abort = begin();
      try {
        return await observe((onEvent) => work(abort.signal, onEvent), new TurnAccumulator(describe));
      } finally {
        finish(abort);
      }
    },
    [describe, observe, begin, finish],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);

  return { live, busy, startedAt, retry, waitingSince, lastUsage, send, track, cancel };
}
