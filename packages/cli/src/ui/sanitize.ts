import { stripTerminalControls } from '@kodo/core/engine';

/**
 * Text from the model or a command, made safe and measurable for the terminal: escape sequences
 * and control characters removed, 7-bit and 8-bit (C1) alike (`stripTerminalControls`, core's one
 * sanitiser: a reply must not move the cursor or retitle the window), carriage-return overwrites
 * resolved the way a terminal shows them (progress bars keep their last state), tabs expanded
 * (terminal width libraries count a tab as zero columns).
 */
export function sanitizeForTerminal(text: string): string {
  let clean = stripTerminalControls(text).replace(/\r\n/g, '\n');
  if (clean.includes('\r')) {
    clean = clean
      .split('\n')
      .map((line) => line.slice(line.lastIndexOf('\r') + 1))
      .join('\n');
  }
  return clean.replace(/\t/g, '    ');
}

/** The last `maxLines` lines of a text (for live output and bounded live regions). */
export function lastLines(full: string, maxLines: number): { text: string; hidden: number } {
  const text = full.replace(/\n+$/, '');
  if (maxLines <= 0) return { text: '', hidden: text === '' ? 0 : text.split('\n').length };
  let index = text.length;
  let count = 0;
  while (count < maxLines) {
    const previous = text.lastIndexOf('\n', index - 1);
    if (previous === -1) return { text, hidden: 0 };
    index = previous;
    count += 1;
  }
  const hidden = text.slice(0, index).split('\n').length;
  return { text: text.slice(index + 1), hidden };
}
