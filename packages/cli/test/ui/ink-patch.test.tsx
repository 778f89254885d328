import { EventEmitter } from 'node:events';
import { Box, batchedUpdates, render, Static, Text } from 'ink';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';

/**
 * kodo's patch of Ink (patches/ink+6.8.0.patch, applied by `npm install`): the frame writer is
 * taken from `createLog`, final `<Static>` output is handed to its `insertStatic`, a burst of
 * updates draws one frame, and `batchedUpdates` is exported. If the patch did not apply, these fail.
 */
class FakeTty extends EventEmitter {
  isTTY = true;
  columns = 60;
  rows = 20;
  written = '';
  write(data: string) {
    this.written += data;
    return true;
  }
}

/** Set by the component: makes three state updates in one batch. */
let bump: () => void = () => {};
function Counter() {
  const [items, setItems] = useState<string[]>([]);
  const [a, setA] = useState(0);
  const [b, setB] = useState(0);
  useEffect(() => {
    bump = () =>
      batchedUpdates(() => {
        setItems((current) => [...current, `final ${current.length}`]);
        setA((n) => n + 1);
        setB((n) => n + 1);
      });
  }, []);
  return (
    <Box flexDirection="column">
      <Static items={items}>{(item) => <Text key={item}>{item}</Text>}</Static>
      <Text>
        live {a}/{b}
      </Text>
    </Box>
  );
}

// Ink writes plainly when it thinks it runs in CI (the `CI` variable), without its frame writer.
const inCi = Boolean(process.env.CI && process.env.CI !== 'false');

describe.skipIf(inCi)('patched Ink', () => {
  it('draws through createLog, hands final output to insertStatic and batches a burst of updates', async () => {
    const frames: string[] = [];
    const inserted: string[] = [];
    const log = Object.assign(
      (frame: string) => {
        frames.push(frame);
        return true;
      },
      {
        clear() {},
        done() {},
        sync() {},
        setCursorPosition() {},
        isCursorDirty: () => false,
        willRender: () => true,
        insertStatic(text: string, frame: string) {
          inserted.push(text);
          frames.push(frame);
        },
        forget() {},
      },
    );
    const stdout = new FakeTty();
    const instance = render(<Counter />, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new FakeTty() as unknown as NodeJS.ReadStream,
      patchConsole: false,
      maxFps: 500,
      createLog: () => log,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = frames.length;
    bump();
    await new Promise((resolve) => setTimeout(resolve, 20));
    instance.unmount();
    expect(inserted.join('')).toContain('final 0');
    // One frame for the three updates, never a half-updated one.
    expect(frames.slice(before).filter((frame) => frame.includes('live'))).toEqual(['live 1/1\n']);
    expect(stdout.written).not.toContain('live 1/1');
  });
});
