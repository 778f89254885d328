import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { untilAborted } from '../../src/utils/abort';

describe('untilAborted', () => {
  it('gives the value and leaves no listener on the signal', async () => {
    const controller = new AbortController();
    for (let index = 0; index < 20; index += 1) {
      await expect(untilAborted(Promise.resolve(index), controller.signal, 'aborted')).resolves.toBe(index);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(untilAborted(Promise.reject(new Error('no')), controller.signal, 'aborted')).rejects.toThrow(
      'no',
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('gives the abort value when the signal aborts first, or was aborted already', async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => {});
    const waiting = untilAborted(never, controller.signal, 'aborted');
    controller.abort();
    await expect(waiting).resolves.toBe('aborted');
    await expect(untilAborted(Promise.resolve(1), controller.signal, 'aborted')).resolves.toBe('aborted');
  });
});
