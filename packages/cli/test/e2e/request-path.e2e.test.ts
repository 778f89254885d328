/**
 * How deep `kodo -p` is when its request goes out (issue O: at most 10 of kodo's functions
 * between main() and `http.request`). A preloaded script records the stack as V8 sees it
 * (async frames included) at the moment `http.request` is called; the test counts the frames in
 * kodo's own files. Not counted: main() itself (in dist/kodo.cjs) and the promise executor the
 * transport's `openPost` hands to `new Promise` (a closure inside it, not a step of its own).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiTextReply, runKodo, startGeminiMock } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();

const PRELOAD = `
Error.stackTraceLimit = 200;
const http = require('node:http');
const request = http.request;
http.request = function (...args) {
  const stack = new Error('request').stack.split('\\n').slice(2).map((line) => line.trim());
  require('node:fs').writeFileSync(process.env.KODO_TEST_STACK_FILE, stack.join('\\n'));
  http.request = request;
  return request.apply(this, args);
};
`;

describe('the path from kodo -p to its request', () => {
  it('has at most 10 of kodo’s functions between main() and http.request', async () => {
    const preload = join(dirs.root, 'record-stack.cjs');
    const stackFile = join(dirs.root, 'stack.txt');
    writeFileSync(preload, PRELOAD);
    const mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Hi.') }] });
    try {
      const run = await runKodo(['-p', 'hello', '-m', 'gemini-test'], {
        cwd: dirs.workspace,
        env: {
          ...geminiMockEnv(dirs.home, mock.url),
          NODE_OPTIONS: `--require ${JSON.stringify(preload)}`,
          KODO_TEST_STACK_FILE: stackFile,
        },
      });
      expect(run.stdout, run.stderr).toBe('Hi.\n');
    } finally {
      await mock.close();
    }
    const frames = readFileSync(stackFile, 'utf8').split('\n');
    const kodo = (frame: string) => /packages[\\/]cli[\\/]dist[\\/]/.test(frame);
    const executor = (index: number) => frames[index + 1]?.startsWith('at new Promise');
    const steps = frames.filter((frame, index) => kodo(frame) && !executor(index));
    // The last of kodo's frames is main(), in the entry file.
    expect(steps.at(-1)).toMatch(/dist[\\/]kodo\.cjs/);
    const between = steps.slice(0, -1);
    expect(between.length, between.join('\n')).toBeLessThanOrEqual(10);
  });
});
