import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CompletionList } from '../../src/ui/components/completion-list';

const SUGGESTIONS = [
  { value: '/compress', label: '/compress', description: 'Summarise the conversation' },
  { value: '/copy', label: '/copy', description: 'Copy the last answer' },
];

describe('CompletionList', () => {
  it('leaves a gap between each name and its description, also for the selected longest name', () => {
    for (const selected of [0, 1]) {
      const { lastFrame, unmount } = render(
        <CompletionList suggestions={SUGGESTIONS} selected={selected} width={80} />,
      );
      const lines = (lastFrame() ?? '').split('\n');
      unmount();
      expect(lines.find((line) => line.includes('/compress'))).toMatch(/\/compress {2,}Summarise/);
      expect(lines.find((line) => line.includes('/copy '))).toMatch(/\/copy {2,}Copy/);
    }
  });

  it('keeps the gap when a name is too long for half the width', () => {
    const long = [{ value: '/x', label: '/a-very-long-command-name', description: 'does things' }];
    const { lastFrame, unmount } = render(<CompletionList suggestions={long} selected={0} width={30} />);
    const frame = lastFrame() ?? '';
    unmount();
    expect(frame).toMatch(/ {2}does/);
  });
});
