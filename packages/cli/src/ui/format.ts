import { homedir } from 'node:os';
import { sep } from 'node:path';

/** 1234 → `1.2k`, 2_500_000 → `2.5M`. */
export function compactNumber(value: number): string {
  if (value < 1000) return String(Math.round(value));
  if (value < 1_000_000) return `${trimZero((value / 1000).toFixed(1))}k`;
  return `${trimZero((value / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/** Seconds with one decimal below a minute, then `1m 05s`. */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

/** `~/src/project` for paths under home, and at most `maxLength` characters (`…/deep/dir`). */
export function shortenPath(path: string, maxLength: number, home = homedir()): string {
  let shown = home && (path === home || path.startsWith(home + sep)) ? `~${path.slice(home.length)}` : path;
  if (shown.length <= maxLength) return shown;
  const parts = shown.split(sep);
  while (parts.length > 1 && `…${sep}${parts.join(sep)}`.length > maxLength) parts.shift();
  shown = `…${sep}${parts.join(sep)}`;
  return shown.length <= maxLength ? shown : `…${shown.slice(-(maxLength - 1))}`;
}

/**
 * Columns a string takes in a terminal: wide East Asian characters and emoji count two,
 * combining marks and zero-width characters none. (Close enough for laying out tables.)
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x300 && code <= 0x36f) || code === 0x200b || code === 0xfe0f) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
