import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { useKeyHandler } from '../hooks/use-key-handler';
import { useTheme } from '../hooks/use-theme';

export interface SelectItem {
  value: string;
  label: string;
  description?: string;
}

export interface ChoiceRequest {
  title: string;
  items: SelectItem[];
  /** The value selected at first (the current one), if any. */
  initial?: string;
}

interface Props extends ChoiceRequest {
  width: number;
  /** Rows of items shown at most; the list scrolls to keep the selected one visible. */
  maxVisible: number;
  onSelect(value: string): void;
  onCancel(): void;
}

/** A menu picked with ↑/↓ (or j/k) and Enter; Esc leaves it without a choice. */
export function SelectList({ title, items, initial, width, maxVisible, onSelect, onCancel }: Props) {
  const theme = useTheme();
  const [selected, setSelected] = useState(() =>
    Math.max(
      0,
      items.findIndex((item) => item.value === initial),
    ),
  );
  // The key help appears once the keys are listened to (an effect, like the subscription).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const visible = Math.max(1, Math.min(maxVisible, items.length));
  useKeyHandler(
    (input, key) => {
      if (key.escape || (key.ctrl && input === 'c')) onCancel();
      else if (key.return) {
        const item = items[selected];
        if (item) onSelect(item.value);
      } else if (key.upArrow || input === 'k')
        setSelected((index) => (index - 1 + items.length) % items.length);
      else if (key.downArrow || input === 'j') setSelected((index) => (index + 1) % items.length);
      else if (key.pageUp) setSelected((index) => Math.max(0, index - visible));
      else if (key.pageDown) setSelected((index) => Math.min(items.length - 1, index + visible));
    },
    { isActive: true },
  );
  const first = Math.min(Math.max(0, selected - Math.floor(visible / 2)), items.length - visible);
  const shown = items.slice(first, first + visible);
  const labelWidth = Math.min(Math.max(...items.map((item) => item.label.length)) + 4, Math.floor(width / 2));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.border} paddingX={1} width={width}>
      <Text bold color={theme.accent}>
        {title}
      </Text>
      {shown.map((item, offset) => {
        const active = first + offset === selected;
        return (
          <Box key={item.value}>
            <Box width={labelWidth} flexShrink={0} paddingRight={2}>
              <Text
                color={active ? theme.accent : undefined}
                bold={active}
                inverse={active && !theme.accent}
                wrap="truncate-end"
              >
                {active ? '› ' : '  '}
                {item.label}
              </Text>
            </Box>
            {item.description ? (
              <Text color={theme.muted} wrap="truncate-end">
                {item.description}
              </Text>
            ) : null}
          </Box>
        );
      })}
      <Text color={theme.muted}>
        {ready ? '↑/↓ to move · Enter to choose · Esc to cancel' : ' '}
        {items.length > visible ? ` · ${selected + 1}/${items.length}` : ''}
      </Text>
    </Box>
  );
}
