import { Box, Text } from 'ink';
import type { QueuedPrompt } from '../hooks/use-prompt-queue';
import { useTheme } from '../hooks/use-theme';
import { sanitizeForTerminal } from '../sanitize';

interface Props {
  items: readonly QueuedPrompt[];
  /** Steering lines sent during the turn, waiting for its next step. */
  steering?: readonly string[];
  width: number;
}

const oneLine = (text: string) => sanitizeForTerminal(text.replace(/\s*\n\s*/g, ' ⏎ '));

/**
 * Shown above the input while lines wait: steering lines (they join the turn at its next step)
 * and queued prompts (sent in order when the turn ends), one line each, oldest first.
 */
export function QueuedPrompts({ items, steering = [], width }: Props) {
  const theme = useTheme();
  if (items.length === 0 && steering.length === 0) return null;
  return (
    <Box flexDirection="column" width={width} paddingX={1}>
      {steering.length > 0 ? (
        <Text color={theme.muted}>Steering ({steering.length}) · joins the turn after the current step</Text>
      ) : null}
      {steering.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same line may be sent twice; its place is its identity
        <Text key={`s${index}`} wrap="truncate-end">
          <Text color={theme.accent}>{'  ↳ '}</Text>
          {oneLine(line)}
        </Text>
      ))}
      {items.length > 0 ? (
        <Text color={theme.muted}>
          Queued ({items.length}) · sent in order when the turn ends · esc removes the last
        </Text>
      ) : null}
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same line may be queued twice; its place is its identity
        <Text key={index} wrap="truncate-end">
          <Text color={theme.accent}>{item.mode === 'shell' ? '  ! ' : '  › '}</Text>
          {oneLine(item.text)}
        </Text>
      ))}
    </Box>
  );
}
