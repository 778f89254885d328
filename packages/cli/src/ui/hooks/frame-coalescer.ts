/** The timer functions a FrameCoalescer uses (injected in tests). */
export interface CoalescerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: CoalescerClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Decides when the live turn is redrawn while events stream in. The first event after a quiet
 * spell (the first token of an answer, the first after a pause) is drawn at once, so nobody
 * waits a whole interval for it; events that follow within `intervalMs` of the last draw are
 * coalesced into one draw at the end of that interval, so a fast stream costs one repaint per
 * interval however many tokens arrive.
 */
export class FrameCoalescer {
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;

  constructor(
    private readonly flush: () => void,
    private readonly intervalMs: number,
    private readonly clock: CoalescerClock = realClock,
  ) {}

  /** Something changed: draw now if the last draw is older than the interval, else soon. */
  request(): void {
    if (this.timer !== undefined) return;
    const wait = this.lastFlushAt + this.intervalMs - this.clock.now();
    if (wait <= 0) this.flushNow();
    else this.timer = this.clock.setTimeout(() => this.flushNow(), wait);
  }

  /** Draws at once (an urgent event, the turn's end) and drops any pending draw. */
  flushNow(): void {
    this.cancel();
    this.lastFlushAt = this.clock.now();
    this.flush();
  }

  /** Drops a pending draw without drawing. */
  cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
