import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from '../../src/tools/builtin/apply-patch';
import { createReplaceTool } from '../../src/tools/builtin/replace';
import { createWriteFileTool } from '../../src/tools/builtin/write-file';
import { restoreLineEndings } from '../../src/tools/line-endings';
import { runTool } from './helpers';

/**
 * Issue N, "An edit in a mixed-line-ending file changes a neighbouring line's ending": zero bytes
 * outside the edited span may change. Files mix CRLF, LF and a lone CR; each edit changes one
 * span, and every byte before and after it must be the file's own, for `replace`, `write_file`
 * over the file and `apply_patch`.
 */
let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const bytesOf = (rel: string) => readFileSync(join(ws.root, rel)).toString('latin1');

/** Files whose lines end in every combination, a lone CR inside a line, with and without a final newline. */
const FILES = [
  'one\r\ntwo\nthree\r\nfour\nfive\r\n',
  'alpha\nbeta\r\ngamma\r\ndelta\r\nomega\n',
  'a lone\rcr\r\nsecond\nthird\r\nfourth',
  'x1\r\nx2\r\nx3\nx4\r\nx5\r\nx6\n',
  'head\n\r\nafter blank crlf\n\nafter blank lf\r\nend\r\n',
];

/** Every line's text (split on CRLF or LF; a lone CR stays inside its line). */
const linesOf = (raw: string) => raw.split(/\r?\n/).filter((line) => line !== '');

/** `raw` with `from` (once, at its first place) replaced by `to`: what a byte-exact edit gives. */
const spliced = (raw: string, from: string, to: string) => {
  const at = raw.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  return raw.slice(0, at) + to + raw.slice(at + from.length);
};

const cases = FILES.flatMap((raw, file) => linesOf(raw).map((line) => [file, raw, line] as const));

describe('zero bytes outside the edited span change', () => {
  it.each(cases)('replace: file %i, line %j', async (_file, raw, line) => {
    ws.write('f.txt', Buffer.from(raw, 'latin1'));
    const result = await runTool(
      createReplaceTool(),
      {
        file_path: 'f.txt',
        instruction: 'edit',
        old_string: line.replace('\r', '\r'),
        new_string: `${line}!`,
      },
      ws.ctx,
    );
    expect(result.error).toBeUndefined();
    expect(bytesOf('f.txt')).toBe(spliced(raw, line, `${line}!`));
  });

  it.each(cases)('write_file with one line changed: file %i, line %j', async (_file, raw, line) => {
    ws.write('f.txt', Buffer.from(raw, 'latin1'));
    const content = spliced(raw.replace(/\r\n/g, '\n'), line, `${line} changed`);
    const result = await runTool(createWriteFileTool(), { file_path: 'f.txt', content }, ws.ctx);
    expect(result.error).toBeUndefined();
    expect(bytesOf('f.txt')).toBe(spliced(raw, line, `${line} changed`));
  });

  it.each(cases.filter(([, , line]) => !line.includes('\r')))(
    'apply_patch: file %i, line %j',
    async (_file, raw, line) => {
      ws.write('f.txt', Buffer.from(raw, 'latin1'));
      const patch = [
        '*** Begin Patch',
        '*** Update File: f.txt',
        `-${line}`,
        `+${line}?`,
        '*** End Patch',
        '',
      ];
      const result = await runTool(applyPatchTool, { input: patch.join('\n') }, ws.ctx);
      expect(result.error).toBeUndefined();
      expect(bytesOf('f.txt')).toBe(spliced(raw, line, `${line}?`));
    },
  );

  it('an edit across lines keeps the endings around it and, line for line, inside it', async () => {
    ws.write('f.txt', 'one\r\ntwo\nthree\r\nfour\nfive\r\n');
    const result = await runTool(
      createReplaceTool(),
      {
        file_path: 'f.txt',
        instruction: 'edit',
        old_string: 'two\nthree\r\nfour',
        new_string: 'TWO\nTHREE\nFOUR',
      },
      ws.ctx,
    );
    expect(result.error).toBeUndefined();
    expect(bytesOf('f.txt')).toBe('one\r\nTWO\nTHREE\r\nFOUR\nfive\r\n');
  });

  it('replace_all keeps the lines between the edits as they were', async () => {
    ws.write('f.txt', 'v = 1\nkeep\r\nkeep2\nv = 1\r\nend\n');
    const result = await runTool(
      createReplaceTool(),
      {
        file_path: 'f.txt',
        instruction: 'edit',
        old_string: 'v = 1',
        new_string: 'v = 2',
        allow_multiple: true,
      },
      ws.ctx,
    );
    expect(result.error).toBeUndefined();
    expect(bytesOf('f.txt')).toBe('v = 2\nkeep\r\nkeep2\nv = 2\r\nend\n');
  });

  it('added lines take the ending most lines use; a deleted line takes only its own ending', () => {
    expect(restoreLineEndings('a\r\nb\r\nc\nd\r\n', 'a\nb\nc\nc2\nd\n', 'crlf')).toBe(
      'a\r\nb\r\nc\nc2\r\nd\r\n',
    );
    expect(restoreLineEndings('a\r\nb\nc\r\n', 'a\nc\n', 'crlf')).toBe('a\r\nc\r\n');
    expect(restoreLineEndings('a\r\nb\nc\r\n', 'a\nb\nc', 'crlf')).toBe('a\r\nb\nc');
  });
});
