import { Box, Text } from 'ink';
import { memo } from 'react';
import { useTheme } from '../hooks/use-theme';
import { sanitizeForTerminal } from '../sanitize';

interface Props {
  diff: string;
  /** Lines shown at most; the rest is summarised. */
  maxLines: number;
}

interface DiffLine {
  kind: 'add' | 'remove' | 'context' | 'hunk';
  number: number | undefined;
  text: string;
}

/** True for text that is a unified diff (what the edit tools report). */
export function isUnifiedDiff(text: string): boolean {
  return /^(?:Index: .*\n=+\n)?--- .*\n\+\+\+ .*\n@@ /m.test(text);
}

/** Parses a unified diff into numbered lines (new-file numbers; old ones for removed lines). */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const raw of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      if (lines.length > 0) lines.push({ kind: 'hunk', number: undefined, text: '⋮' });
      continue;
    }
    if (!inHunk || raw.startsWith('\\')) continue;
    if (raw.startsWith('+')) lines.push({ kind: 'add', number: newLine++, text: raw.slice(1) });
    else if (raw.startsWith('-')) lines.push({ kind: 'remove', number: oldLine++, text: raw.slice(1) });
    else if (raw.startsWith(' ')) {
      lines.push({ kind: 'context', number: newLine, text: raw.slice(1) });
      oldLine += 1;
      newLine += 1;
    }
  }
  return lines;
}

/** A coloured diff with line numbers, as the edit tools propose and report it. */
export const DiffView = memo(function DiffView({ diff, maxLines }: Props) {
  const theme = useTheme();
  const lines = parseUnifiedDiff(sanitizeForTerminal(diff));
  if (lines.length === 0) return <Text color={theme.muted}>(no changes)</Text>;
  const shown = lines.slice(0, Math.max(1, maxLines));
  const numberWidth = String(Math.max(...shown.map((line) => line.number ?? 0))).length;
  return (
    <Box flexDirection="column">
      {shown.map((line, index) => {
        const sign = line.kind === 'add' ? '+' : line.kind === 'remove' ? '-' : ' ';
        const color =
          line.kind === 'add' ? theme.diffAdded : line.kind === 'remove' ? theme.diffRemoved : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: diff lines have no identity but their position
          <Text key={index} color={color} dimColor={line.kind === 'context' || line.kind === 'hunk'}>
            <Text color={theme.muted}>{String(line.number ?? '').padStart(numberWidth)} </Text>
            {sign} {line.text}
          </Text>
        );
      })}
      {lines.length > shown.length ? (
        <Text color={theme.muted}>… {lines.length - shown.length} more lines</Text>
      ) : null}
    </Box>
  );
});
