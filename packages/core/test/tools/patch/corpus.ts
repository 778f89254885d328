/**
 * Patches and whether the apply_patch grammar accepts them. The verdicts were checked with
 * Python's `lark` (Earley and LALR parsers) on the grammar text; `parse.test.ts` checks kodo's
 * parser against every one, and against `lark` itself where it is installed. `error` is what the
 * parser's refusal must say (the line, and the section or hunk where there is one).
 */
export interface CorpusEntry {
  name: string;
  patch: string;
  valid: boolean;
  error?: RegExp;
}

const patch = (...lines: string[]) => `${lines.join('\n')}\n`;
const BEGIN = '*** Begin Patch';
const END = '*** End Patch';

export const CORPUS: readonly CorpusEntry[] = [
  // Valid patches.
  { name: 'add a file', patch: patch(BEGIN, '*** Add File: a.txt', '+hello', END), valid: true },
  {
    name: 'add a file without a final newline after the end marker',
    patch: `${BEGIN}\n*** Add File: a.txt\n+hello\n${END}`,
    valid: true,
  },
  { name: 'add an empty file', patch: patch(BEGIN, '*** Add File: empty.txt', END), valid: true },
  {
    name: 'add a file with empty lines',
    patch: patch(BEGIN, '*** Add File: a', '+', '+x', '+', END),
    valid: true,
  },
  { name: 'delete a file', patch: patch(BEGIN, '*** Delete File: old.txt', END), valid: true },
  {
    name: 'update without an @@ line',
    patch: patch(BEGIN, '*** Update File: a.py', ' a', '-b', '+c', ' d', END),
    valid: true,
  },
  {
    name: 'update with a bare @@',
    patch: patch(BEGIN, '*** Update File: a.py', '@@', '-b', '+c', END),
    valid: true,
  },
  {
    name: 'update with an @@ line naming a function',
    patch: patch(
      BEGIN,
      '*** Update File: a.py',
      '@@ def f():',
      '     x = 1',
      '-    y = 2',
      '+    y = 3',
      END,
    ),
    valid: true,
  },
  {
    name: 'two @@ lines in a row narrow the place',
    patch: patch(
      BEGIN,
      '*** Update File: a.py',
      '@@ class A',
      '@@   def f(self):',
      '-  pass',
      '+  return 1',
      END,
    ),
    valid: true,
  },
  {
    name: 'several hunks',
    patch: patch(BEGIN, '*** Update File: a', '@@', ' 1', '-2', '+two', '@@ x', ' 5', '-6', '@@', '+7', END),
    valid: true,
  },
  {
    name: 'a first hunk without @@, then one with',
    patch: patch(BEGIN, '*** Update File: a', ' 1', '-2', '@@', ' 5', '+6', END),
    valid: true,
  },
  {
    name: 'an @@ followed by a space only',
    patch: patch(BEGIN, '*** Update File: a', '@@ ', '-x', END),
    valid: true,
  },
  {
    name: 'an @@ with a unified diff range',
    patch: patch(BEGIN, '*** Update File: a', '@@ -1,3 +1,4 @@', ' a', '+b', END),
    valid: true,
  },
  {
    name: 'end of file marker after the last hunk',
    patch: patch(BEGIN, '*** Update File: a', '@@', ' last', '+new last', '*** End of File', END),
    valid: true,
  },
  {
    name: 'end of file marker, then another operation',
    patch: patch(BEGIN, '*** Update File: a', '-x', '*** End of File', '*** Delete File: b', END),
    valid: true,
  },
  {
    name: 'a move only',
    patch: patch(BEGIN, '*** Update File: a.txt', '*** Move to: b.txt', END),
    valid: true,
  },
  {
    name: 'a move with hunks',
    patch: patch(BEGIN, '*** Update File: a.txt', '*** Move to: dir/b.txt', '@@', '-x', '+y', END),
    valid: true,
  },
  {
    name: 'every operation in one patch',
    patch: patch(
      BEGIN,
      '*** Add File: new.txt',
      '+n',
      '*** Delete File: gone.txt',
      '*** Update File: kept.txt',
      '-a',
      '+b',
      '*** Update File: m.txt',
      '*** Move to: n.txt',
      END,
    ),
    valid: true,
  },
  {
    name: 'hunk lines that look like markers',
    patch: patch(BEGIN, '*** Update File: a', '-*** End Patch', '+*** Begin Patch', ' @@ x', END),
    valid: true,
  },
  {
    name: 'added lines that look like markers',
    patch: patch(BEGIN, '*** Add File: a', '+*** End Patch', END),
    valid: true,
  },
  {
    name: 'a path with spaces inside',
    patch: patch(BEGIN, '*** Add File: my dir/a b.txt', '+x', END),
    valid: true,
  },
  { name: 'a path with trailing spaces', patch: patch(BEGIN, '*** Delete File: a.txt  ', END), valid: true },
  { name: 'an absolute path', patch: patch(BEGIN, '*** Delete File: /etc/passwd', END), valid: true },
  { name: 'a path with ..', patch: patch(BEGIN, '*** Add File: ../escape.txt', '+x', END), valid: true },
  {
    name: 'unicode content',
    patch: patch(BEGIN, '*** Add File: ü.txt', '+“quoted” — dash ✓', END),
    valid: true,
  },
  { name: 'tabs in content', patch: patch(BEGIN, '*** Update File: a', '-\tx', '+\t\ty', END), valid: true },
  {
    name: 'empty hunk lines of each kind',
    patch: patch(BEGIN, '*** Update File: a', ' ', '-', '+', END),
    valid: true,
  },

  // Invalid patches.
  { name: 'empty input', patch: '', valid: false, error: /^Invalid patch at line 1: a patch starts with/ },
  {
    name: 'no begin marker',
    patch: patch('*** Add File: a', '+x', END),
    valid: false,
    error: /^Invalid patch at line 1: a patch starts with the line "\*\*\* Begin Patch"/,
  },
  {
    name: 'text before the begin marker',
    patch: patch('Here is the patch:', BEGIN, '*** Add File: a', '+x', END),
    valid: false,
    error: /^Invalid patch at line 1:/,
  },
  {
    name: 'no end marker',
    patch: patch(BEGIN, '*** Add File: a', '+x'),
    valid: false,
    error: /^Invalid patch at line 3: the patch ends without "\*\*\* End Patch"/,
  },
  {
    name: 'no operation',
    patch: patch(BEGIN, END),
    valid: false,
    error: /^Invalid patch at line 2: the patch has no file operation/,
  },
  {
    name: 'text after the end marker',
    patch: patch(BEGIN, '*** Delete File: a', END, 'thanks'),
    valid: false,
    error: /^Invalid patch at line 4: nothing may follow "\*\*\* End Patch"/,
  },
  {
    name: 'a blank line after the end marker',
    patch: `${patch(BEGIN, '*** Delete File: a', END)}\n`,
    valid: false,
    error: /^Invalid patch at line 4: nothing may follow/,
  },
  {
    name: 'CRLF line endings',
    patch: `${BEGIN}\r\n*** Delete File: a\r\n${END}\r\n`,
    valid: false,
    error: /^Invalid patch at line 1: the line contains a carriage return/,
  },
  {
    name: 'a carriage return inside a content line',
    patch: patch(BEGIN, '*** Add File: a', '+x\ry', END),
    valid: false,
    error: /^Invalid patch at line 3: the line contains a carriage return/,
  },
  {
    name: 'a header without the space after the colon',
    patch: patch(BEGIN, '*** Add File:a.txt', '+x', END),
    valid: false,
    error: /^Invalid patch at line 2: expected the next "\*\*\* Add File: "/,
  },
  {
    name: 'a header with two spaces before the path',
    patch: patch(BEGIN, '*** Add File:  a.txt', '+x', END),
    valid: false,
    error: /^Invalid patch at line 2: a path must follow "\*\*\* Add File: " directly/,
  },
  {
    name: 'a header with no path',
    patch: patch(BEGIN, '*** Delete File: ', END),
    valid: false,
    error: /^Invalid patch at line 2: a path must follow/,
  },
  {
    name: 'a misspelled header',
    patch: patch(BEGIN, '*** Modify File: a.txt', '-x', END),
    valid: false,
    error:
      /^Invalid patch at line 2: expected the next "\*\*\* Add File: ".*found "\*\*\* Modify File: a.txt"/,
  },
  {
    name: 'lowercase header',
    patch: patch(BEGIN, '*** add file: a.txt', '+x', END),
    valid: false,
    error: /^Invalid patch at line 2:/,
  },
  {
    name: 'an added file line without +',
    patch: patch(BEGIN, '*** Add File: a.txt', '+one', 'two', END),
    valid: false,
    error:
      /^Invalid patch at line 4: in "\*\*\* Add File: a.txt", every line of the new file starts with "\+"/,
  },
  {
    name: 'lines after a delete',
    patch: patch(BEGIN, '*** Delete File: a.txt', '-x', END),
    valid: false,
    error: /^Invalid patch at line 3: expected the next/,
  },
  {
    name: 'an update with nothing in it',
    patch: patch(BEGIN, '*** Update File: a.txt', END),
    valid: false,
    error: /^Invalid patch at line 3: "\*\*\* Update File: a.txt" has no hunk/,
  },
  {
    name: 'an empty line inside a hunk',
    patch: patch(BEGIN, '*** Update File: a.txt', '@@', ' a', '', ' b', END),
    valid: false,
    error: /^Invalid patch at line 5: in hunk 1 of "\*\*\* Update File: a.txt", an empty line/,
  },
  {
    name: 'an unprefixed line inside the second hunk',
    patch: patch(BEGIN, '*** Update File: a.txt', '@@', ' a', '@@', '-b', 'c', END),
    valid: false,
    error:
      /^Invalid patch at line 7 \(hunk \d+ of "\*\*\* Update File: [^"]+"\): expected a hunk line or the next/,
  },
  {
    name: '@@ lines with no hunk lines after them',
    patch: patch(BEGIN, '*** Update File: a.txt', '@@', '-x', '@@ def f():', END),
    valid: false,
    error:
      /^Invalid patch at line 5 \(hunk 2 of "\*\*\* Update File: a.txt"\): the hunk has "@@" lines but no lines/,
  },
  {
    name: 'only @@ in an update',
    patch: patch(BEGIN, '*** Update File: a.txt', '@@', END),
    valid: false,
    error: /^Invalid patch at line 3 \(hunk 1 of "\*\*\* Update File: a.txt"\): the hunk has "@@" lines/,
  },
  {
    name: '@@ directly followed by text',
    patch: patch(BEGIN, '*** Update File: a.txt', '@@def f():', '-x', END),
    valid: false,
    error:
      /^Invalid patch at line 3 \(hunk 1 of "\*\*\* Update File: a.txt"\): a hunk header is "@@" alone or "@@ " followed by a line of the file; found "@@def f\(\):"/,
  },
  {
    name: '@@ followed by a tab',
    patch: patch(BEGIN, '*** Update File: a.txt', '-y', '@@\tx', '-x', END),
    valid: false,
    error: /^Invalid patch at line 4 \(hunk 2 of "\*\*\* Update File: a.txt"\): a hunk header is/,
  },
  {
    name: 'end of file marker before any hunk line',
    patch: patch(BEGIN, '*** Update File: a.txt', '*** End of File', END),
    valid: false,
    error:
      /^Invalid patch at line 3 \("\*\*\* Update File: a.txt"\): "\*\*\* End of File" must follow the lines of a hunk/,
  },
  {
    name: 'end of file marker after @@ lines only',
    patch: patch(BEGIN, '*** Update File: a.txt', '-x', '@@', '*** End of File', END),
    valid: false,
    error:
      /^Invalid patch at line 5 \(hunk 2 of "\*\*\* Update File: a.txt"\): "\*\*\* End of File" must follow/,
  },
  {
    name: 'a hunk after the end of file marker',
    patch: patch(BEGIN, '*** Update File: a.txt', '-x', '*** End of File', '@@', '-y', END),
    valid: false,
    error: /^Invalid patch at line 5 \(hunk 1 of "\*\*\* Update File: [^"]+"\):/,
  },
  {
    name: 'end of file marker after a move only',
    patch: patch(BEGIN, '*** Update File: a.txt', '*** Move to: b.txt', '*** End of File', END),
    valid: false,
    error: /^Invalid patch at line 4/,
  },
  {
    name: 'end of file marker in an added file',
    patch: patch(BEGIN, '*** Add File: a.txt', '+x', '*** End of File', END),
    valid: false,
    error: /^Invalid patch at line 4: expected the next/,
  },
  {
    name: 'a move after the hunks',
    patch: patch(BEGIN, '*** Update File: a.txt', '-x', '*** Move to: b.txt', END),
    valid: false,
    error:
      /^Invalid patch at line 4 \(hunk 1 of "\*\*\* Update File: [^"]+"\): "\*\*\* Move to: " belongs on the line right after/,
  },
  {
    name: 'a move without a path',
    patch: patch(BEGIN, '*** Update File: a.txt', '*** Move to: ', END),
    valid: false,
    error: /^Invalid patch at line 3 \("\*\*\* Update File: a.txt"\): a path must follow "\*\*\* Move to: "/,
  },
  {
    name: 'two moves',
    patch: patch(BEGIN, '*** Update File: a.txt', '*** Move to: b.txt', '*** Move to: c.txt', END),
    valid: false,
    error: /^Invalid patch at line 4:/,
  },
  {
    name: 'a move after an added file',
    patch: patch(BEGIN, '*** Add File: a.txt', '+x', '*** Move to: b.txt', END),
    valid: false,
    error: /^Invalid patch at line 4:/,
  },
  {
    name: 'a unified diff instead',
    patch: patch('--- a/x.txt', '+++ b/x.txt', '@@ -1 +1 @@', '-a', '+b'),
    valid: false,
    error: /^Invalid patch at line 1:/,
  },
  {
    name: 'markers with trailing spaces',
    patch: patch(`${BEGIN} `, '*** Delete File: a', END),
    valid: false,
    error: /^Invalid patch at line 1:/,
  },
  {
    name: 'an end marker with trailing spaces',
    patch: patch(BEGIN, '*** Delete File: a', `${END} `),
    valid: false,
    error: /^Invalid patch at line 3:/,
  },
  {
    name: 'an indented header',
    patch: patch(BEGIN, ' *** Delete File: a', END),
    valid: false,
    error: /^Invalid patch at line 2:/,
  },
  {
    name: 'a patch wrapped in JSON',
    patch: JSON.stringify({ input: patch(BEGIN, '*** Delete File: a', END) }),
    valid: false,
    error: /^Invalid patch at line 1:/,
  },
];
