import { Text } from 'ink';
import { useIdleRepaint } from '../hooks/use-idle-repaint';
import { useTheme } from '../hooks/use-theme';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A spinner whose frame follows the clock: it re-renders only itself when nothing else repaints
 * the screen, and otherwise moves on with the repaints that happen anyway.
 */
export function Spinner({ intervalMs = 100 }: { intervalMs?: number }) {
  const theme = useTheme();
  useIdleRepaint(intervalMs);
  const frame = Math.floor(Date.now() / intervalMs) % FRAMES.length;
  return <Text color={theme.accent}>{FRAMES[frame]}</Text>;
}
