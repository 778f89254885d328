import { Box, Text } from 'ink';
import { useTheme } from '../hooks/use-theme';
import type { Suggestion } from '../input/completion';

interface Props {
  suggestions: Suggestion[];
  selected: number;
  width: number;
}

const MARKER_WIDTH = 2;
const GAP = 2;

/** The suggestions under the input; the selected one is marked and highlighted. */
export function CompletionList({ suggestions, selected, width }: Props) {
  const theme = useTheme();
  // The marker (2 columns), the longest label, then a gap of 2 before the descriptions.
  const labelWidth = Math.min(
    Math.max(...suggestions.map((s) => s.label.length)) + MARKER_WIDTH + GAP,
    Math.floor(width / 2),
  );
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {suggestions.map((suggestion, index) => {
        const active = index === selected;
        return (
          <Box key={suggestion.value} width={Math.max(10, width - 2)}>
            <Box width={labelWidth} flexShrink={0} paddingRight={GAP}>
              <Text color={active ? theme.accent : undefined} bold={active} wrap="truncate-middle">
                {active ? '› ' : '  '}
                {suggestion.label}
              </Text>
            </Box>
            {suggestion.description ? (
              <Text color={theme.muted} wrap="truncate-end">
                {suggestion.description}
              </Text>
            ) : null}
          </Box>
        );
      })}
    </Box>
  );
}
