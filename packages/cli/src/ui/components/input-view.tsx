import { Box, Text } from 'ink';
import { useTheme } from '../hooks/use-theme';
import type { TextBuffer } from '../input/text-buffer';

interface Props {
  buffer: TextBuffer;
  /** `>` for prompts, `!` in shell mode, or a search label. */
  marker: string;
  markerColor: string | undefined;
  placeholder: string;
  width: number;
  showCursor: boolean;
}

/**
 * The editor's text with a block cursor. Lines after the first are indented under the marker.
 * The marker `>` is also what tests and the launch benchmark look for as "ready to type".
 */
export function InputView({ buffer, marker, markerColor, placeholder, width, showCursor }: Props) {
  const theme = useTheme();
  const lines = buffer.text.split('\n');
  let offset = 0;
  return (
    <Box borderStyle="round" borderColor={theme.border} paddingX={1} width={width} flexDirection="column">
      {lines.map((line, row) => {
        const start = offset;
        offset += line.length + 1;
        const cursorHere = showCursor && buffer.cursor >= start && buffer.cursor <= start + line.length;
        const column = buffer.cursor - start;
        const underCursor = Array.from(line.slice(column))[0] ?? '';
        const prefix = row === 0 ? `${marker} ` : ' '.repeat(marker.length + 1);
        if (buffer.text === '') {
          return (
            <Text key="empty">
              <Text color={markerColor}>{prefix}</Text>
              {showCursor ? <Text inverse>{placeholder.slice(0, 1) || ' '}</Text> : null}
              <Text color={theme.muted}>{showCursor ? placeholder.slice(1) : placeholder}</Text>
            </Text>
          );
        }
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
          <Text key={row}>
            <Text color={markerColor}>{prefix}</Text>
            {cursorHere ? (
              <>
                {line.slice(0, column)}
                <Text inverse>{underCursor || ' '}</Text>
                {line.slice(column + underCursor.length)}
              </>
            ) : (
              line || ' '
            )}
          </Text>
        );
      })}
    </Box>
  );
}
