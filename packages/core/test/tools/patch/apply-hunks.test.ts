import { describe, expect, it } from 'vitest';
import { applyHunks, type HunkOutcome } from '../../../src/tools/patch/apply-hunks';
import { parsePatch } from '../../../src/tools/patch/parse';

/** The hunks of `*** Update File: f` with these lines, applied to `content`. */
function update(content: string, ...lines: string[]): HunkOutcome {
  const parsed = parsePatch(['*** Begin Patch', '*** Update File: f', ...lines, '*** End Patch'].join('\n'));
  if (!parsed.ok) throw new Error(parsed.message);
  const [operation] = parsed.operations;
  if (operation?.kind !== 'update') throw new Error('not an update');
  return applyHunks(content, operation.hunks);
}

function applied(outcome: HunkOutcome): string {
  if (!outcome.ok) throw new Error(`hunk ${outcome.hunk}: ${outcome.message}`);
  return outcome.text;
}

const FILE = ['a', 'b', 'c', 'd', 'e', ''].join('\n');

describe('applyHunks', () => {
  it('replaces, removes and adds lines at the place the context names', () => {
    expect(applied(update(FILE, ' b', '-c', '+C', '+C2', ' d'))).toBe('a\nb\nC\nC2\nd\ne\n');
    expect(applied(update(FILE, ' a', '-b', ' c'))).toBe('a\nc\nd\ne\n');
  });

  it('applies several hunks in order, each after the one before', () => {
    const content = 'x\n1\nx\n2\nx\n3\n';
    // The same context ("x") after each earlier hunk is unambiguous.
    expect(applied(update(content, ' 1', '-x', '+y', '@@', ' 2', '-x', '+z'))).toBe('x\n1\ny\n2\nz\n3\n');
  });

  it('refuses context that matches several places, naming the hunk and the lines', () => {
    const outcome = update('x\n1\nx\n1\n', '@@', '-x', '+y', ' 1');
    expect(outcome).toEqual({
      ok: false,
      hunk: 1,
      reason: 'ambiguous',
      message:
        'its context matches 2 places (lines 1, 3); add context lines that tell them apart, or an "@@" line naming the enclosing function or class.',
    });
  });

  it('takes the first place after an @@ line that names one, and jumps through several', () => {
    const content = ['class A', '  run()', '    go', 'class B', '  run()', '    go', ''].join('\n');
    expect(applied(update(content, '@@ class B', '-    go', '+    stop'))).toBe(
      ['class A', '  run()', '    go', 'class B', '  run()', '    stop', ''].join('\n'),
    );
    expect(applied(update(content, '@@ class A', '@@ run()', '-    go', '+    stop'))).toBe(
      ['class A', '  run()', '    stop', 'class B', '  run()', '    go', ''].join('\n'),
    );
  });

  it('reports an @@ line that names no line of the file', () => {
    const outcome = update(FILE, '@@ def missing():', '-c');
    expect(outcome).toMatchObject({ ok: false, hunk: 1, reason: 'not_found' });
    expect(!outcome.ok && outcome.message).toMatch(
      /^the line "@@ def missing\(\):" names was not found in the file/,
    );
  });

  it('ignores the line numbers of a unified diff header', () => {
    expect(applied(update(FILE, '@@ -3,1 +3,1 @@', '-c', '+C'))).toBe('a\nb\nC\nd\ne\n');
  });

  it('reports lines that are not there, with the lines it looked for', () => {
    const outcome = update(FILE, ' b', '-x', '+y');
    expect(outcome).toEqual({
      ok: false,
      hunk: 1,
      reason: 'not_found',
      message:
        'its context and "-" lines were not found. They start with:\n  b\n  x\nRead the file again and copy the lines exactly (" " context, "-" removed).',
    });
  });

  it('names the failing hunk, not the first one, and says after which line it looked', () => {
    const outcome = update(FILE, '-b', '+B', '@@', '-nope');
    expect(outcome).toMatchObject({ ok: false, hunk: 2, reason: 'not_found' });
    expect(!outcome.ok && outcome.message).toContain('not found after line 2');
  });

  it('does not look before the previous hunk (hunks go in file order)', () => {
    const outcome = update(FILE, '-d', '+D', '@@', '-b', '+B');
    expect(outcome).toMatchObject({ ok: false, hunk: 2 });
  });

  describe('forgiving comparison, strictest first', () => {
    it('forgives trailing whitespace and keeps the file’s own context lines', () => {
      const content = 'one  \ntwo\t\nthree\n';
      const outcome = update(content, ' one', '-two', '+2');
      expect(outcome).toEqual({
        ok: true,
        text: 'one  \n2\nthree\n',
        notes: ['hunk 1 matched at line 1 ignoring trailing whitespace'],
      });
    });

    it('forgives indentation', () => {
      const outcome = update('if x:\n\treturn 1\n', ' if x:', '-  return 1', '+\treturn 2');
      expect(outcome).toEqual({
        ok: true,
        text: 'if x:\n\treturn 2\n',
        notes: ['hunk 1 matched at line 1 ignoring indentation'],
      });
    });

    it('forgives typographic punctuation, and writes added lines as given', () => {
      const content = 'say(“hello” – it’s\u00a0fine…)\nnext\n';
      const outcome = update(content, ' say("hello" - it\'s fine...)', '-next', '+after');
      expect(outcome).toEqual({
        ok: true,
        text: 'say(“hello” – it’s\u00a0fine…)\nafter\n',
        notes: ['hunk 1 matched at line 1 ignoring indentation and typographic punctuation'],
      });
    });

    it('prefers an exact match to a forgiving one elsewhere', () => {
      const content = '  x\nx\n';
      expect(update(content, '-x', '+y')).toEqual({ ok: true, text: '  x\ny\n', notes: [] });
    });

    it('does not forgive a different word', () => {
      expect(update('const value = 1;\n', '-const valeu = 1;', '+const value = 2;')).toMatchObject({
        ok: false,
      });
    });
  });

  describe('the end of the file', () => {
    it('with "*** End of File", only a match that ends the file counts', () => {
      const content = 'x\nend\nx\n';
      expect(applied(update(content, '-x', '+y', '*** End of File'))).toBe('x\nend\ny\n');
    });

    it('adds lines with no context at the end of the file', () => {
      expect(applied(update('a\nb\n', '@@', '+c', '+d'))).toBe('a\nb\nc\nd\n');
    });

    it('adds lines with no context right after the line an @@ names', () => {
      expect(applied(update('def f():\n  pass\nrest\n', '@@ def f():', '+  """Doc."""'))).toBe(
        'def f():\n  """Doc."""\n  pass\nrest\n',
      );
    });

    it('adds lines with no context at the end when "*** End of File" says so, whatever the @@ line', () => {
      expect(applied(update('def f():\n  pass\nrest\n', '@@ def f():', '+# end', '*** End of File'))).toBe(
        'def f():\n  pass\nrest\n# end\n',
      );
    });

    it('keeps a missing final newline missing', () => {
      expect(applied(update('a\nb', '-b', '+B'))).toBe('a\nB');
      expect(applied(update('a\nb', ' b', '+c'))).toBe('a\nb\nc');
    });

    it('keeps a final newline when the last line changes', () => {
      expect(applied(update('a\nb\n', '-b', '+B', '*** End of File'))).toBe('a\nB\n');
    });

    it('drops a trailing blank context line the file does not have', () => {
      expect(applied(update('a\nb\n', ' a', '-b', '+B', ' '))).toBe('a\nB\n');
    });

    it('gives an empty file a final newline with its first lines', () => {
      expect(applied(update('', '+first'))).toBe('first\n');
    });

    it('can empty a file', () => {
      expect(applied(update('a\nb\n', '-a', '-b'))).toBe('');
    });
  });
});
