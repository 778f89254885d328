import type { ApprovalMode } from '@kodo/core/engine';
import { Box, Text } from 'ink';
import { compactNumber, shortenPath } from '../format';
import { useTheme } from '../hooks/use-theme';

export interface FooterInfo {
  model: string;
  /** Share of the context window the last request used, 0–1; undefined before the first. */
  contextUsed: number | undefined;
  inputTokens: number;
  outputTokens: number;
  /** USD so far; undefined when the model's price is unknown. */
  cost: number | undefined;
  cwd: string;
  branch: string | undefined;
  approvalMode: ApprovalMode;
  sandbox: string | undefined;
}

interface Props {
  info: FooterInfo;
  width: number;
}

/** One line (wrapping on narrow terminals) of what the session is and what it has used. */
export function Footer({ info, width }: Props) {
  const theme = useTheme();
  const modeColor =
    info.approvalMode === 'yolo'
      ? theme.error
      : info.approvalMode === 'default'
        ? theme.muted
        : theme.warning;
  const parts: { text: string; color?: string | undefined }[] = [
    { text: info.model, color: theme.accent },
    {
      text:
        info.contextUsed === undefined
          ? 'context 0%'
          : `context ${Math.min(100, Math.round(info.contextUsed * 1000) / 10)}%`,
    },
    { text: `↑${compactNumber(info.inputTokens)} ↓${compactNumber(info.outputTokens)}` },
    ...(info.cost !== undefined ? [{ text: `$${info.cost.toFixed(info.cost < 1 ? 3 : 2)}` }] : []),
    {
      text: `${shortenPath(info.cwd, Math.max(12, Math.floor(width / 3)))}${info.branch ? ` (${info.branch})` : ''}`,
    },
    { text: info.approvalMode, color: modeColor },
    { text: info.sandbox ?? 'no sandbox' },
  ];
  return (
    <Box flexWrap="wrap" width={width}>
      {parts.map((part, index) => (
        <Text key={part.text + String(index)} color={part.color ?? theme.muted} wrap="truncate-end">
          {index > 0 ? ' · ' : ''}
          {part.text}
        </Text>
      ))}
    </Box>
  );
}
