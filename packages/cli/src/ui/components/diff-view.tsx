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
  /** `file`: the name of the next file, in a diff of several files (apply_patch). */
  kind: 'add' | 'remove' | 'context' | 'hunk' | 'file';
  number: number | undefined;
  text: string;
}

/** True for text that is a unified diff (what the edit tools report). */
export function isUnifiedDiff(text: string): boolean {
  return /^(?:Index: .*\n=+\n)?--- .*\n\+\+\+ .*\n@@ /m.test(text);
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Parses a unified diff into numbered lines (new-file numbers; old ones for removed lines). A
 * hunk's lines are counted off its header, so a changed line that looks like a file header
 * (`--- x` removed) stays a line; between hunks, `--- a` / `+++ b` start the next file, named
 * by a `file` line when the diff holds more than one.
 */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const raws = diff.split('\n');
  const files = raws.filter(
    (raw, index) => raw.startsWith('--- ') && raws[index + 1]?.startsWith('+++ '),
  ).length;
  const lines: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (const [index, raw] of raws.entries()) {
    if (oldLeft > 0 || newLeft > 0) {
      if (raw.startsWith('+')) {
        lines.push({ kind: 'add', number: newLine++, text: raw.slice(1) });
        newLeft--;
      } else if (raw.startsWith('-')) {
        lines.push({ kind: 'remove', number: oldLine++, text: raw.slice(1) });
        oldLeft--;
      } else if (raw.startsWith(' ') || raw === '') {
        lines.push({ kind: 'context', number: newLine, text: raw.slice(1) });
        oldLine += 1;
        newLine += 1;
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    const hunk = HUNK_HEADER.exec(raw);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[3]);
      oldLeft = Number(hunk[2] ?? 1);
      newLeft = Number(hunk[4] ?? 1);
      if (lines.length > 0 && lines.at(-1)!.kind !== 'file')
        lines.push({ kind: 'hunk', number: undefined, text: '⋮' });
      continue;
    }
    if (files > 1 && raw.startsWith('+++ ') && raws[index - 1]?.startsWith('--- ')) {
      // A tab ends the name (before a date or label); DiffView has expanded tabs to four spaces.
      const name = (header: string) => header.slice(4).split(/\t| {4}/)[0]!;
      const from = name(raws[index - 1]!);
      const to = name(raw);
      lines.push({ kind: 'file', number: undefined, text: from === to ? to : `${from} → ${to}` });
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
        if (line.kind === 'file') {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: diff lines have no identity but their position
            <Text key={index} bold color={theme.code}>
              {line.text}
            </Text>
          );
        }
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
