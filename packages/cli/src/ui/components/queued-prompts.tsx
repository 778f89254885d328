import { Box, Text } from 'ink';
import type { QueuedPrompt } from '../hooks/use-prompt-queue';
import { useTheme } from '../hooks/use-theme';
import { sanitizeForTerminal } from '../sanitize';

interface Props {
  items: readonly QueuedPrompt[];
  width: number;
}

/** Shown above the input while prompts wait for the turn to end: one line each, oldest first. */
export function QueuedPrompts({ items, width }: Props) {
  const theme = useTheme();
  if (items.length === 0) return null;
  return (
    <Box flexDirection="column" width={width} paddingX={1}>
      <Text color={theme.muted}>
        Queued ({items.length}) · sent in order when the turn ends · esc removes the last
      </Text>
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same line may be queued twice; its place is its identity
        <Text key={index} wrap="truncate-end">
          <Text color={theme.accent}>{item.mode === 'shell' ? '  ! ' : '  › '}</Text>
          {sanitizeForTerminal(item.text.replace(/\s*\n\s*/g, ' ⏎ '))}
        </Text>
      ))}
    </Box>
  );
}
