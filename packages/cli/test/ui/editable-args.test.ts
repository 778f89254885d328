import { describe, expect, it } from 'vitest';
import { editableArgs } from '../../src/ui/editable-args';

const PATCH = '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n';

describe('editableArgs', () => {
  it('opens a patch as its text and puts the edited text back', () => {
    const details = {
      kind: 'edit' as const,
      title: 'Confirm Patch: a.txt',
      filePath: '/ws/a.txt',
      diff: '',
      newContent: '',
    };
    const editable = editableArgs({ input: PATCH }, details);
    expect(editable).toMatchObject({ text: PATCH, fileName: 'patch.txt' });
    expect(editable.apply('*** Begin Patch\n*** Delete File: b.txt\n*** End Patch\n')).toEqual({
      ok: true,
      args: { input: '*** Begin Patch\n*** Delete File: b.txt\n*** End Patch\n' },
    });
  });

  it('keeps other tools with an `input` argument as JSON', () => {
    const editable = editableArgs({ input: 'x' }, { kind: 'info', title: 'Confirm', prompt: 'x' });
    expect(editable.fileName).toBe('arguments.json');
  });
});
