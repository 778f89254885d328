import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { stripEscapeSequences } from '../../utils/terminal-text';

/** How much of a background log is read at most: its end, where the news is. */
export const LOG_TAIL_BYTES = 64 * 1024;

export interface LogTail {
  /** The complete lines of the window, escape sequences removed. */
  lines: string[];
  /** The file is longer than the window (its first, partial line was dropped). */
  truncated: boolean;
  /** The file has no content at all. */
  empty: boolean;
}

/**
 * Reads the last `maxBytes` of a log. The file is opened with O_NOFOLLOW: a symlink planted at
 * the predictable log path must not make kodo read (and hand the model) another file; that open
 * fails with ELOOP, which callers report.
 */
export async function readLogTail(path: string, maxBytes = LOG_TAIL_BYTES): Promise<LogTail> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  let text: string;
  let position: number;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const length = Math.min(size, maxBytes);
    position = size - length;
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  if (size === 0) return { lines: [], truncated: false, empty: true };
  const lines = text
    .split('\n')
    .map((line) => stripEscapeSequences(line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.at(-1) === '') lines.pop();
  // Reading from the middle of the file: the first line is most likely a fragment.
  if (position > 0) lines.shift();
  return { lines, truncated: position > 0, empty: false };
}
