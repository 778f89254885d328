import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { rgPath } from '@vscode/ripgrep';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../src/tools/builtin/grep';
import type { GrepBackend } from '../../src/tools/grep/backend';
import { JsGrepBackend } from '../../src/tools/grep/js-backend';
import { RipgrepBackend } from '../../src/tools/grep/rg-backend';
import { runTool, text } from './helpers';

/**
 * Issue N (new-user run): one `grep_search` hit in a 1.4 MB minified line took 12 s and ignored
 * Esc, and what it showed was the line's first 2,000 characters, not the match. The work per
 * line is bounded (a window around the match, with a note of what was cut) for ripgrep and the
 * JavaScript fallback, and an abort ends a search promptly with a cancelled result.
 */
let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const CHUNK = 'function a(b){return b.map(function(c){return c*2+Math.max(c,1)})}var d=a([1,2,3]);';
/** A 1.4 MB minified bundle on one line, with `needle` once deep inside it. */
function minified(needle: string): string {
  const body = CHUNK.repeat(Math.ceil(1_400_000 / CHUNK.length));
  return `${body}${needle}${body.slice(0, 5000)}\n`;
}

const BACKENDS: [string, () => GrepBackend][] = [
  ['ripgrep', () => new RipgrepBackend(rgPath)],
  ['javascript', () => new JsGrepBackend()],
];

describe.each(BACKENDS)('%s: a match in a huge line', (_label, make) => {
  it('shows a bounded window around the match and says how much was cut', { timeout: 60_000 }, async () => {
    ws.write('bundle.min.js', minified('NEEDLE_HERE'));
    const result = await runTool(createGrepTool({ backend: make() }), { pattern: 'NEEDLE_HERE' }, ws.ctx);
    const output = text(result);
    expect(output).toContain('Found 1 match');
    expect(output).toContain('NEEDLE_HERE');
    expect(output.length).toBeLessThan(5_000);
    expect(output).toMatch(/\[[\d,]+ characters cut\]/);
  });

  it('a pattern matching all over the line: still one bounded line', { timeout: 60_000 }, async () => {
    ws.write('bundle.min.js', minified('x'));
    const result = await runTool(
      createGrepTool({ backend: make() }),
      { pattern: 'return [a-z]\\*2' },
      ws.ctx,
    );
    const output = text(result);
    expect(output).toContain('return c*2');
    expect(output.length).toBeLessThan(5_000);
  });

  it('context lines next to a huge line are bounded too', { timeout: 60_000 }, async () => {
    ws.write('bundle.min.js', `${minified('other')}short NEEDLE line\n${minified('more')}`);
    const result = await runTool(
      createGrepTool({ backend: make() }),
      { pattern: 'short NEEDLE', context: 1 },
      ws.ctx,
    );
    const output = text(result);
    expect(output).toContain('L2: short NEEDLE line');
    expect(output).toMatch(/L1- function a/);
    expect(output).toMatch(/L3- function a/);
    expect(output.length).toBeLessThan(10_000);
  });

  it('an abort during the search ends it with a cancelled result', { timeout: 60_000 }, async () => {
    for (let index = 0; index < 40; index++)
      ws.write(`dist/b${String(index).padStart(2, '0')}.min.js`, minified('zz'));
    const controller = new AbortController();
    const running = runTool(
      createGrepTool({ backend: make() }),
      { pattern: 'no_such_text_[0-9]+', no_ignore: true },
      ws.ctx,
      { signal: controller.signal },
    );
    // As soon as the search is under way: 56 MB cannot be searched in one turn of the event loop,
    // whereas a fixed delay lets a fast machine finish first (and the test then proves nothing).
    setImmediate(() => controller.abort());
    const result = await running;
    expect(text(result)).toMatch(/cancelled/i);
    expect(controller.signal.aborted).toBe(true);
  });
});
