import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';

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
 * cut by the limit or by the end of the file (a torn last line) is not shown. Returns how many
 * lines were shown; undefined when the file cannot be read.
 */
export function readHeadLines(
  file: string,
  visit: (line: string) => HeadVerdict,
  limitBytes = 1 << 20,
): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  let shown = 0;
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
        shown += 1;
        if (visit(line) === 'stop') return shown;
      }
    }
    return shown;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The first `bytes` of a file as text ('' when it cannot be read): a probe, not lines. */
export function readStart(file: string, bytes: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, bytes, 0));
  } catch {
    return '';
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

/**
 * The JSON values of a log's lines, in order; blank lines are passed over and lines that are not
 * JSON are counted in `damage`, so a damaged line costs only itself.
 */
export async function* readJsonLines(file: string, damage: DamagedLines): AsyncGenerator<unknown> {
  for await (const text of readLines(file)) {
    const value = damage.parse(text);
    if (value !== undefined) yield value;
  }
}

/** The lines of a log that were not JSON, to say afterwards what was skipped. */
export class DamagedLines {
  private readonly unreadable: number[] = [];
  private lines = 0;

  /** The next line's JSON value; undefined when it is blank or not JSON (then counted). */
  parse(text: string): unknown {
    this.lines += 1;
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      this.unreadable.push(this.lines);
      return undefined;
    }
  }

  /** One sentence per kind of damage: a torn last line (a write cut short), unreadable lines. */
  warnings(file: string): string[] {
    const warnings: string[] = [];
    const name = basename(file);
    const torn = this.unreadable.at(-1) === this.lines;
    if (torn) {
      warnings.push(
        `Skipped an incomplete last record in ${name} (the session stopped while it was being written).`,
      );
    }
    const middle = torn ? this.unreadable.length - 1 : this.unreadable.length;
    if (middle > 0) warnings.push(`Skipped ${middle} unreadable record(s) in ${name}.`);
    return warnings;
  }
}
