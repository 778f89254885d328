import { describe, expect, it } from 'vitest';
import { RetryDedup } from '../../src/headless/retry-dedup';

function setup() {
  const out: string[] = [];
  let diverged = 0;
  const dedup = new RetryDedup(
    (text) => out.push(text),
    () => {
      diverged += 1;
    },
  );
  return { dedup, out, diverged: () => diverged };
}

describe('RetryDedup', () => {
  it('prints a retried answer once when it repeats the partial one', () => {
    const { dedup, out, diverged } = setup();
    dedup.content('Hello, ');
    dedup.content('wor');
    dedup.retry();
    dedup.content('Hello, ');
    dedup.content('world!');
    dedup.content(' Bye.');
    expect(out.join('')).toBe('Hello, world! Bye.');
    expect(diverged()).toBe(0);
  });

  it('prints a diverging retry on a new line and says so', () => {
    const { dedup, out, diverged } = setup();
    dedup.content('First try');
    dedup.retry();
    dedup.content('Second answer');
    expect(out.join('')).toBe('First try\nSecond answer');
    expect(diverged()).toBe(1);
  });

  it('passes text straight through when nothing was printed before the retry', () => {
    const { dedup, out } = setup();
    dedup.retry();
    dedup.content('only');
    dedup.endTurn();
    dedup.content(' next turn');
    expect(out.join('')).toBe('only next turn');
  });
});
