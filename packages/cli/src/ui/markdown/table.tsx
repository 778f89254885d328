import { Box, Text } from 'ink';
import type { Tokens } from 'marked';
import { displayWidth } from '../format';
import { useTheme } from '../hooks/use-theme';
import { plainText } from './inline';

interface Props {
  table: Tokens.Table;
  width: number;
}

/**
 * A GFM table with box-drawing separators when it fits the width; on a narrow terminal each row
 * becomes a small block of `header: value` lines instead (a squeezed grid is unreadable).
 */
export function Table({ table, width }: Props) {
  const theme = useTheme();
  const header = table.header.map((cell) => plainText(cell.tokens));
  const rows = table.rows.map((row) => row.map((cell) => plainText(cell.tokens)));
  const widths = header.map((title, column) =>
    Math.max(displayWidth(title), ...rows.map((row) => displayWidth(row[column] ?? ''))),
  );
  const total = widths.reduce((sum, w) => sum + w, 0) + 3 * (widths.length - 1);
  if (total > width) {
    return (
      <Box flexDirection="column">
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
          <Box key={index} flexDirection="column" marginBottom={index < rows.length - 1 ? 1 : 0}>
            {header.map((title, column) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns neither
              <Text key={column}>
                <Text bold>{title}:</Text> {row[column] ?? ''}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    );
  }
  const pad = (text: string, column: number) => {
    const gap = widths[column]! - displayWidth(text);
    const align = table.align[column];
    if (align === 'right') return ' '.repeat(gap) + text;
    if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(Math.ceil(gap / 2));
    return text + ' '.repeat(gap);
  };
  const separator = widths.map((w) => '─'.repeat(w)).join('─┼─');
  return (
    <Box flexDirection="column">
      <Text>
        {header.map((title, column) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: columns have no identity but their position
          <Text key={column}>
            {column > 0 ? <Text color={theme.border}> │ </Text> : null}
            <Text bold>{pad(title, column)}</Text>
          </Text>
        ))}
      </Text>
      <Text color={theme.border}>{separator}</Text>
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
        <Text key={index}>
          {widths.map((_, column) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns neither
            <Text key={column}>
              {column > 0 ? <Text color={theme.border}> │ </Text> : null}
              {pad(row[column] ?? '', column)}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
