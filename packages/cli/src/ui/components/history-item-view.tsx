import { Box, Text } from 'ink';
import { memo } from 'react';
import { shortenPath } from '../format';
import { useTheme } from '../hooks/use-theme';
import { Markdown } from '../markdown/markdown';
import { sanitizeForTerminal } from '../sanitize';
import type { HistoryItem, InfoTone, NewHistoryItem } from '../types';
import { ThoughtView } from './thought-view';
import { ToolCallBox } from './tool-call-box';

interface Props {
  item: HistoryItem | NewHistoryItem;
  width: number;
  thoughtsExpanded: boolean;
  /** Lines of tool output or diff shown at most. */
  maxToolLines: number;
}

const TONE_ICON: Record<InfoTone, string> = { info: 'ℹ', warning: '⚠', error: '✖', success: '✔' };

/** One finished item of the transcript. */
export const HistoryItemView = memo(function HistoryItemView({
  item,
  width,
  thoughtsExpanded,
  maxToolLines,
}: Props) {
  const theme = useTheme();
  const inner = Math.max(10, width - 2);
  switch (item.kind) {
    case 'banner':
      return (
        <Box flexDirection="column" marginBottom={1}>
          <Text>
            <Text bold color={theme.accent}>
              kodo
            </Text>{' '}
            <Text color={theme.muted}>
              {item.version} · {shortenPath(item.cwd, Math.max(10, width - 20))}
            </Text>
          </Text>
          <Text color={theme.muted}>
            /help for commands · @path attaches files · !cmd runs a shell command · esc cancels · ctrl+c twice
            exits
          </Text>
        </Box>
      );
    case 'user':
      return (
        <Box marginTop={1} flexDirection="row">
          <Text color={theme.accent}>&gt; </Text>
          <Box width={inner}>
            <Text color={theme.user}>{sanitizeForTerminal(item.text)}</Text>
          </Box>
        </Box>
      );
    case 'shell-input':
      return (
        <Box marginTop={1}>
          <Text color={theme.warning}>! </Text>
          <Text color={theme.user}>{sanitizeForTerminal(item.command)}</Text>
        </Box>
      );
    case 'model':
      return (
        <Box flexDirection="row" marginTop={1}>
          <Box width={2} flexShrink={0}>
            {/* A continuation's gutter is empty: a coloured space would cost bytes, not pixels. */}
            {item.continuation ? <Text> </Text> : <Text color={theme.accent}>✦</Text>}
          </Box>
          <Markdown text={item.text} width={inner} />
        </Box>
      );
    case 'thought':
      return (
        <Box marginTop={1}>
          <ThoughtView text={item.text} expanded={thoughtsExpanded} />
        </Box>
      );
    case 'tool':
      return (
        <ToolCallBox call={item.call} width={width} maxBodyLines={maxToolLines} expanded={thoughtsExpanded} />
      );
    case 'info': {
      const color = { info: theme.muted, warning: theme.warning, error: theme.error, success: theme.success }[
        item.tone
      ];
      return (
        <Box marginTop={1} flexDirection="row">
          <Box width={2} flexShrink={0}>
            <Text color={color}>{TONE_ICON[item.tone]}</Text>
          </Box>
          <Box width={inner}>
            <Text color={color}>{item.text}</Text>
          </Box>
        </Box>
      );
    }
    case 'panel':
      return (
        <Box
          marginTop={1}
          flexDirection="column"
          borderStyle="round"
          borderColor={theme.border}
          paddingX={1}
          width={width}
        >
          <Text bold color={theme.accent}>
            {item.title}
          </Text>
          <Markdown text={item.body} width={Math.max(10, width - 4)} />
        </Box>
      );
  }
});
