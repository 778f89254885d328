import { closeSync, createReadStream, openSync, readSync } from 'node:fs';

/**
 * The lines of a JSONL file, read in 256 KiB chunks and split on `\n` bytes (a trailing `\r`
 * dropped): a few times faster than `readline` on a log of long lines, and a long line is joined
 * once. Used to read whole session logs, kodo's and other tools'.
 */
export async function* readLines(file: string): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 18 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      const bytes = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
      yield bytes.toString('utf8', 0, end);
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield Buffer.concat(pending).toString('utf8');
}

/** What a head reader's visitor says after a line: read on, or stop here. */
export type HeadVerdict = 'more' | 'stop';

/**
 * Shows the complete lines of a file's first `limitBytes` to `visit`, a chunk at a time, until it
 * says `stop`: a session list reads only the head of each log, never a long session whole. A line
 * cut by the limit or by the end of the file (a torn last line) is not shown. False when the file
 * cannot be read.
 */
export function readHeadLines(
  file: string,
  visit: (line: string) => HeadVerdict,
  limitBytes = 1 << 20,
): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    let offset = 0;
    // Bytes read but not yet split into lines (a line may span chunks).
    let pending = Buffer.alloc(0);
    while (offset < limitBytes) {
      const read = readSync(fd, buffer, 0, buffer.length, offset);
      if (read === 0) break;
      offset += read;
      pending = Buffer.concat([pending, buffer.subarray(0, read)]);
      for (;;) {
        const newline = pending.indexOf(10);
        if (newline < 0) break;
        const line = pending.subarray(0, newline).toString('utf8');
        pending = pending.subarray(newline + 1);
        if (visit(line) === 'stop') return true;
      }
    }
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** A line's JSON value, or undefined when it is not JSON. */
export function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
