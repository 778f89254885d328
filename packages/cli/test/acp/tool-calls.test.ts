import { describe, expect, it } from 'vitest';
import { confirmationContent } from '../../src/acp/tool-calls';

describe('confirmationContent', () => {
  it('shows an edit of one file as its diff', () => {
    expect(
      confirmationContent({
        kind: 'edit',
        title: 'Confirm Edit: a.txt',
        filePath: '/ws/a.txt',
        diff: '',
        oldContent: 'a\n',
        newContent: 'b\n',
      }),
    ).toEqual([{ type: 'diff', path: '/ws/a.txt', oldText: 'a\n', newText: 'b\n' }]);
  });

  it('shows a patch of several files as a diff per file', () => {
    expect(
      confirmationContent({
        kind: 'edit',
        title: 'Confirm Patch: a.txt, b.txt',
        filePath: '/ws/a.txt',
        diff: '',
        oldContent: 'a\n',
        newContent: 'b\n',
        files: [
          { path: '/ws/a.txt', oldText: 'a\n', newText: 'b\n' },
          { path: '/ws/new.txt', oldText: null, newText: 'n\n' },
        ],
      }),
    ).toEqual([
      { type: 'diff', path: '/ws/a.txt', oldText: 'a\n', newText: 'b\n' },
      { type: 'diff', path: '/ws/new.txt', oldText: null, newText: 'n\n' },
    ]);
  });
});
