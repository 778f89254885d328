import { describe, expect, it } from 'vitest';
import { favourMemoryWhenLong, LONG_SESSION_TURNS } from '../src/shared/long-session-memory';

describe('favourMemoryWhenLong', () => {
  it('switches once, at the configured number of model turns', () => {
    let switches = 0;
    const watch = favourMemoryWhenLong({ turns: 3, switchMode: () => (switches += 1) });
    watch({ type: 'content' });
    watch({ type: 'finished' });
    watch({ type: 'tool_call_request' });
    watch({ type: 'finished' });
    expect(switches).toBe(0);
    watch({ type: 'finished' });
    expect(switches).toBe(1);
    for (let turn = 0; turn < 10; turn += 1) watch({ type: 'finished' });
    expect(switches).toBe(1);
  });

  it('waits for a long session by default', () => {
    let switches = 0;
    const watch = favourMemoryWhenLong({ switchMode: () => (switches += 1) });
    for (let turn = 1; turn < LONG_SESSION_TURNS; turn += 1) watch({ type: 'finished' });
    expect(switches).toBe(0);
    watch({ type: 'finished' });
    expect(switches).toBe(1);
  });
});
