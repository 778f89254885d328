import { Text } from 'ink';
import { useEffect, useState } from 'react';
import { useTheme } from '../hooks/use-theme';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner that re-renders only itself. */
export function Spinner({ intervalMs = 100 }: { intervalMs?: number }) {
  const theme = useTheme();
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((current) => (current + 1) % FRAMES.length), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return <Text color={theme.accent}>{FRAMES[frame]}</Text>;
}
