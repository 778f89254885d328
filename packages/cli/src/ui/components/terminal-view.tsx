import { Box, Text } from 'ink';
import { useTheme } from '../hooks/use-theme';
import { sanitizeForTerminal } from '../sanitize';
import type { TerminalScreen } from '../terminal/terminal-screens';

interface Props {
  screen: TerminalScreen;
  focused: boolean;
  /** Rows shown while the person only watches (the newest); all of them while typing into it. */
  maxLines: number;
}

/** A running command's emulated screen inside its tool box, with the cursor while it has the keys. */
export function TerminalView({ screen, focused, maxLines }: Props) {
  const theme = useTheme();
  const first = focused ? 0 : Math.max(0, screen.lines.length - maxLines);
  const rows = screen.lines.slice(first);
  return (
    <Box flexDirection="column">
      {rows.map((line, index) => {
        const row = first + index;
        const clean = sanitizeForTerminal(line);
        if (!focused || row !== screen.cursor.row) {
          return <Text key={row}>{clean || ' '}</Text>;
        }
        const chars = Array.from(clean);
        const column = Math.min(screen.cursor.column, chars.length);
        return (
          <Text key={row}>
            {chars.slice(0, column).join('')}
            <Text inverse>{chars[column] ?? ' '}</Text>
            {chars.slice(column + 1).join('')}
          </Text>
        );
      })}
      <Text color={focused ? theme.accent : theme.muted}>
        {focused
          ? '⌨ typing into the command · ctrl+f returns to the prompt'
          : 'ctrl+f to type into the command'}
      </Text>
    </Box>
  );
}
