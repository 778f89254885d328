import { Box, Text } from 'ink';
import { memo } from 'react';
import { useTerminalScreen } from '../hooks/use-terminal-screens';
import { useTheme } from '../hooks/use-theme';
import { lastLines, sanitizeForTerminal } from '../sanitize';
import type { Theme } from '../theme';
import type { ToolCallView } from '../types';
import { DiffView, isUnifiedDiff } from './diff-view';
import { TerminalView } from './terminal-view';

interface Props {
  call: ToolCallView;
  width: number;
  /** Lines of output or diff shown at most. */
  maxBodyLines: number;
  /** Show every step of a subagent (Ctrl+T), not just the current one. */
  expanded?: boolean;
}

const STATUS_TEXT: Record<ToolCallView['status'], string> = {
  validating: 'pending',
  scheduled: 'pending',
  awaiting_approval: 'awaiting approval',
  executing: 'running',
  success: 'done',
  error: 'failed',
  cancelled: 'cancelled',
};

function statusStyle(
  status: ToolCallView['status'],
  theme: Theme,
): { icon: string; color: string | undefined } {
  switch (status) {
    case 'success':
      return { icon: '✔', color: theme.success };
    case 'error':
      return { icon: '✖', color: theme.error };
    case 'cancelled':
      return { icon: '⊘', color: theme.warning };
    case 'awaiting_approval':
      return { icon: '?', color: theme.warning };
    case 'executing':
      return { icon: '▶', color: theme.accent };
    default:
      return { icon: '○', color: theme.muted };
  }
}

/** One tool call: status, name, description, then live output, the result, a diff or the error. */
export const ToolCallBox = memo(function ToolCallBox({ call, width, maxBodyLines, expanded = false }: Props) {
  const theme = useTheme();
  const { icon, color } = statusStyle(call.status, theme);
  return (
    <Box
      borderStyle="round"
      borderColor={call.status === 'awaiting_approval' ? theme.warning : theme.border}
      flexDirection="column"
      paddingX={1}
      width={width}
    >
      <Box>
        <Box flexShrink={0}>
          <Text>
            <Text color={color}>{icon}</Text> <Text bold>{call.displayName}</Text>{' '}
          </Text>
        </Box>
        <Text color={theme.muted} wrap="truncate-end">
          {sanitizeForTerminal(call.description)}
        </Text>
        <Box flexShrink={0}>
          <Text color={color}> · {STATUS_TEXT[call.status]}</Text>
        </Box>
      </Box>
      {call.subagent && call.status === 'executing' ? (
        <SubagentSteps
          steps={call.subagent.steps}
          expanded={expanded}
          maxLines={maxBodyLines}
          theme={theme}
        />
      ) : (
        <ToolBody call={call} maxLines={maxBodyLines} theme={theme} />
      )}
    </Box>
  );
});

function ToolBody({ call, maxLines, theme }: { call: ToolCallView; maxLines: number; theme: Theme }) {
  // A screen exists only while the call's command runs in a terminal.
  const terminal = useTerminalScreen(call.callId);
  if (terminal) {
    return (
      <TerminalView screen={terminal.screen} focused={terminal.focused} maxLines={Math.min(maxLines, 8)} />
    );
  }
  if (call.status === 'executing' && call.liveOutput) {
    const tail = lastLines(sanitizeForTerminal(call.liveOutput), Math.min(maxLines, 6));
    return <Text color={theme.muted}>{tail.text}</Text>;
  }
  if (call.status === 'error' && call.errorMessage) {
    const tail = lastLines(sanitizeForTerminal(call.errorMessage), maxLines);
    return <Text color={theme.error}>{tail.text}</Text>;
  }
  const result = call.resultDisplay ?? '';
  if (result.trim() === '') return null;
  if (isUnifiedDiff(result)) return <DiffView diff={result} maxLines={maxLines} />;
  const tail = lastLines(sanitizeForTerminal(result), maxLines);
  return (
    <Box flexDirection="column">
      {tail.hidden > 0 ? <Text color={theme.muted}>… {tail.hidden} earlier lines</Text> : null}
      <Text color={call.status === 'cancelled' ? theme.warning : undefined}>{tail.text}</Text>
    </Box>
  );
}

/** A running subagent: its current step (collapsed) or all its steps (expanded with Ctrl+T). */
function SubagentSteps({
  steps,
  expanded,
  maxLines,
  theme,
}: {
  steps: string[];
  expanded: boolean;
  maxLines: number;
  theme: Theme;
}) {
  if (steps.length === 0) return <Text color={theme.muted}>starting…</Text>;
  const shown = expanded ? steps.slice(-maxLines) : steps.slice(-1);
  const earlier = steps.length - shown.length;
  return (
    <Box flexDirection="column">
      <Text color={theme.muted} wrap="truncate-end">
        {shown.map((step) => `↳ ${sanitizeForTerminal(step)}`).join('\n')}
      </Text>
      {earlier > 0 || !expanded ? (
        <Text color={theme.muted}>
          {earlier > 0 ? `${earlier} earlier step(s)` : ''}
          {!expanded ? `${earlier > 0 ? ' · ' : ''}ctrl+t to expand` : ''}
        </Text>
      ) : null}
    </Box>
  );
}
