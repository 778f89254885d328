import { Box, Text } from 'ink';
import { memo } from 'react';
import { useHighlighter } from '../hooks/use-highlighter';
import { useTheme } from '../hooks/use-theme';

interface Props {
  code: string;
  language: string | undefined;
}

/** A fenced code block: indented, syntax-highlighted once the highlighter has loaded. */
export const CodeBlock = memo(function CodeBlock({ code, language }: Props) {
  const theme = useTheme();
  const highlighter = useHighlighter();
  const lines = highlighter?.highlight(code, language || undefined);
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {language ? <Text color={theme.muted}>{language}</Text> : null}
      {lines
        ? lines.map((segments, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
            <Text key={row}>
              {segments.length === 0
                ? ' '
                : segments.map((segment, column) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity either
                    <Text key={column} color={segment.role ? theme.syntax[segment.role] : undefined}>
                      {segment.text}
                    </Text>
                  ))}
            </Text>
          ))
        : code.split('\n').map((line, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
            <Text key={row} color={theme.code}>
              {line === '' ? ' ' : line}
            </Text>
          ))}
    </Box>
  );
});
