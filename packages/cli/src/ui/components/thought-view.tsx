import { Box, Text } from 'ink';
import { memo } from 'react';
import { useTheme } from '../hooks/use-theme';
import { sanitizeForTerminal } from '../sanitize';

interface Props {
  text: string;
  expanded: boolean;
}

/** The subject of a thought: its first bold heading, or its first line. */
export function thoughtSubject(text: string): string {
  const bold = /\*\*(.+?)\*\*/.exec(text)?.[1];
  const subject = bold ?? text.trim().split('\n')[0] ?? '';
  return subject.length > 100 ? `${subject.slice(0, 99)}…` : subject;
}

/** The model's thinking, dimmed: one line (the subject), or all of it when expanded (Ctrl+T). */
export const ThoughtView = memo(function ThoughtView({ text, expanded }: Props) {
  const theme = useTheme();
  const clean = sanitizeForTerminal(text);
  if (!expanded) {
    return (
      <Text dimColor italic>
        ∴ {thoughtSubject(clean)} <Text color={theme.muted}>(ctrl+t to expand)</Text>
      </Text>
    );
  }
  return (
    <Box flexDirection="column">
      <Text dimColor italic>
        ∴ Thinking
      </Text>
      <Box paddingLeft={2}>
        <Text dimColor italic>
          {clean.trim().replace(/\*\*/g, '')}
        </Text>
      </Box>
    </Box>
  );
});
