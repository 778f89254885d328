import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { SelectList } from '../../src/ui/components/select-list';
import { KEYS, sleep } from './helpers';

const ITEMS = ['alpha', 'beta', 'gamma', 'delta'].map((value) => ({
  value,
  label: value,
  description: `the ${value}`,
}));

describe('SelectList', () => {
  it('starts on the current value, moves with the arrows (wrapping) and picks with Enter', async () => {
    const picked: string[] = [];
    const ui = render(
      <SelectList
        title="Pick"
        items={ITEMS}
        initial="beta"
        width={60}
        maxVisible={10}
        onSelect={(value) => picked.push(value)}
        onCancel={() => picked.push('(cancelled)')}
      />,
    );
    await vi.waitFor(() => expect(ui.lastFrame()).toContain('↑/↓ to move'));
    expect(ui.lastFrame()).toContain('› beta');
    ui.stdin.write(KEYS.down);
    await vi.waitFor(() => expect(ui.lastFrame()).toContain('› gamma'));
    ui.stdin.write(KEYS.up);
    await sleep(20);
    ui.stdin.write(KEYS.up);
    await sleep(20);
    ui.stdin.write(KEYS.up);
    await vi.waitFor(() => expect(ui.lastFrame()).toContain('› delta'));
    ui.stdin.write(KEYS.enter);
    await vi.waitFor(() => expect(picked).toEqual(['delta']));
    ui.stdin.write(KEYS.escape);
    await vi.waitFor(() => expect(picked).toEqual(['delta', '(cancelled)']));
    ui.unmount();
  });

  it('scrolls a long list to keep the selected item in view', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ value: `m${i}`, label: `model-${i}` }));
    const ui = render(
      <SelectList
        title="Pick"
        items={many}
        initial="m25"
        width={60}
        maxVisible={5}
        onSelect={() => {}}
        onCancel={() => {}}
      />,
    );
    await sleep(30);
    const frame = ui.lastFrame() ?? '';
    expect(frame).toContain('› model-25');
    expect(frame).not.toContain('model-0 ');
    expect(frame).toContain('26/30');
    ui.unmount();
  });
});
