import { Box, Text } from 'ink';
import { formatDuration } from '../format';
import { useIdleRepaint } from '../hooks/use-idle-repaint';
import { useTheme } from '../hooks/use-theme';
import type { RetryNotice } from '../turn-accumulator';
import { Spinner } from './spinner';

interface Props {
  /** Date.now() when the request started. */
  startedAt: number;
  retry: RetryNotice | undefined;
  waitingForApproval: boolean;
  /** A one-off hint (e.g. "Press Ctrl+C again to exit"). */
  hint?: string | undefined;
}

/** While a request runs: spinner, elapsed time, retry countdown, and how to cancel. */
export function StatusLine({ startedAt, retry, waitingForApproval, hint }: Props) {
  const theme = useTheme();
  // The elapsed time is read at each render; alone, the line repaints twice a second.
  useIdleRepaint(500);
  const now = Date.now();
  let text: string;
  if (retry) {
    const left = Math.max(0, Math.ceil((retry.at + retry.delayMs - now) / 1000));
    text = `${retry.reason} Retrying in ${left} s… (attempt ${retry.attempt})`;
  } else if (waitingForApproval) {
    text = 'Waiting for your approval';
  } else {
    text = 'Working…';
  }
  return (
    <Box>
      <Spinner />
      <Text color={retry ? theme.warning : undefined}> {text}</Text>
      <Text color={theme.muted}>
        {' '}
        ({formatDuration(now - startedAt)} · esc to cancel){hint ? ` · ${hint}` : ''}
      </Text>
    </Box>
  );
}
