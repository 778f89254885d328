import { describe, expect, it } from 'vitest';
import { type CoalescerClock, FrameCoalescer } from '../../src/ui/hooks/frame-coalescer';

/** A clock the test moves by hand; timers fire when `advance` passes their time. */
class ManualClock implements CoalescerClock {
  time = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 0;
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    this.nextId += 1;
    this.timers.push({ at: this.time + ms, callback, id: this.nextId });
    return this.nextId;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = until;
  }
}

function setup() {
  const clock = new ManualClock();
  const draws: number[] = [];
  const coalescer = new FrameCoalescer(() => draws.push(clock.now()), 50, clock);
  return { clock, draws, coalescer };
}

describe('FrameCoalescer', () => {
  it('draws the first event at once, not an interval later', () => {
    const { clock, draws, coalescer } = setup();
    clock.advance(1_000);
    coalescer.request();
    expect(draws).toEqual([1_000]);
  });

  it('coalesces a fast stream into one draw per interval, the last event included', () => {
    const { clock, draws, coalescer } = setup();
    // 100 events 2 ms apart: one draw at once, then one per 50 ms.
    for (let i = 0; i < 100; i += 1) {
      coalescer.request();
      clock.advance(2);
    }
    clock.advance(100);
    expect(draws).toEqual([0, 50, 100, 150, 200]);
  });

  it('draws at once again after a quiet spell', () => {
    const { clock, draws, coalescer } = setup();
    coalescer.request();
    clock.advance(10);
    coalescer.request();
    clock.advance(300);
    coalescer.request();
    expect(draws).toEqual([0, 50, 310]);
  });

  it('flushNow draws at once and drops the pending draw', () => {
    const { clock, draws, coalescer } = setup();
    coalescer.request();
    clock.advance(5);
    coalescer.request();
    clock.advance(5);
    coalescer.flushNow();
    clock.advance(200);
    expect(draws).toEqual([0, 10]);
  });

  it('cancel drops a pending draw', () => {
    const { clock, draws, coalescer } = setup();
    coalescer.request();
    coalescer.request();
    coalescer.cancel();
    clock.advance(200);
    expect(draws).toEqual([0]);
  });
});
