/**
 * Reading ripgrep's `--json` output. Only `match` messages matter to grep_search, and of those
 * only the path, the line and its number; they are cut out of the raw bytes, because decoding and
 * parsing every message in full (offsets, submatches, begin/end records) made a search with many
 * matches spend most of its time collecting garbage.
 */

export interface ParsedMatch {
  path: string;
  /** The matching line without its line ending. */
  line: string;
  lineNumber: number;
  /** Where the first match starts in `line` (UTF-16 index), when rg said (to show a long line around it). */
  matchStart?: number;
}

/** rg's `--json` text, or base64 `bytes` for data that is not UTF-8. */
interface RgData {
  text?: string;
  bytes?: string;
}

interface RgMatchMessage {
  type: 'match';
  data: { path: RgData; lines: RgData; line_number: number; submatches?: { start?: unknown }[] };
}

const MATCH_PREFIX = Buffer.from('{"type":"match"');
// rg writes the fields of a match in this fixed order.
const PATH_START = Buffer.from('{"type":"match","data":{"path":{"text":"');
const LINES_START = Buffer.from('"},"lines":{"text":"');
const NUMBER_START = Buffer.from('"},"line_number":');
// Quotes inside a match's text are escaped, so the first of these after `"submatches":[` is rg's.
const SUBMATCHES = Buffer.from('"submatches":[');
const SUBMATCH_START = Buffer.from('},"start":');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether a line is a `match` message (the others are skipped without decoding). */
export function isMatchMessage(line: Buffer): boolean {
  return hasAt(line, MATCH_PREFIX, 0);
}

/** The match a `match` message describes; any other shape is parsed in full, junk is ignored. */
export function parseMatch(line: Buffer): ParsedMatch | undefined {
  if (hasAt(line, PATH_START, 0)) {
    const path = jsonStringAt(line, PATH_START.length);
    if (path && hasAt(line, LINES_START, path.end)) {
      const text = jsonStringAt(line, path.end + LINES_START.length);
      if (text && hasAt(line, NUMBER_START, text.end)) {
        const lineNumber = digitsAt(line, text.end + NUMBER_START.length);
        const pathValue = path.value + path.lineEnd;
        if (lineNumber > 0) {
          const lineText = stripLineEnd(text.value);
          const at = line.indexOf(SUBMATCHES, text.end);
          const startAt = at < 0 ? -1 : line.indexOf(SUBMATCH_START, at);
          const matchStart =
            startAt < 0 ? undefined : charIndex(lineText, digitsAt(line, startAt + SUBMATCH_START.length));
          return {
            path: pathValue,
            line: lineText,
            lineNumber,
            ...(matchStart !== undefined ? { matchStart } : {}),
          };
        }
      }
    }
  }
  try {
    const { data } = JSON.parse(line.toString('utf8')) as RgMatchMessage;
    if (typeof data?.line_number !== 'number' || !data.path || !data.lines) return undefined;
    const text = stripLineEnd(decode(data.lines));
    const start = data.submatches?.[0]?.start;
    const matchStart = typeof start === 'number' ? charIndex(text, start) : undefined;
    return {
      path: decode(data.path),
      line: text,
      lineNumber: data.line_number,
      ...(matchStart !== undefined ? { matchStart } : {}),
    };
  } catch {
    return undefined; // Not rg's JSON (a wrapper script's chatter): not a match.
  }
}

/** A plain loop: for these few bytes it is cheaper than a call into Buffer.compare. */
function hasAt(buffer: Buffer, prefix: Buffer, at: number): boolean {
  if (buffer.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buffer[at + i] !== prefix[i]) return false;
  return true;
}

interface JsonString {
  /** The decoded string, without `lineEnd`. */
  value: string;
  /** A final `\n` or `\r\n` left out of `value` by the fast path, else ''. */
  lineEnd: string;
  /** Index of the closing quote. */
  end: number;
}

const LF_ESCAPE = Buffer.from('\\n');
const CRLF_ESCAPE = Buffer.from('\\r\\n');

/**
 * The JSON string whose body starts at `start` (after its opening quote). Quote and backslash
 * bytes never occur inside a UTF-8 multi-byte sequence, so the bytes can be scanned directly.
 * Almost every line is plain text plus an escaped line ending; that case is decoded without
 * JSON.parse.
 */
function jsonStringAt(buffer: Buffer, start: number): JsonString | undefined {
  for (let end = buffer.indexOf(QUOTE, start); end !== -1; end = buffer.indexOf(QUOTE, end + 1)) {
    let backslashes = 0;
    for (let i = end - 1; i >= start && buffer[i] === BACKSLASH; i--) backslashes++;
    if (backslashes % 2 === 1) continue; // An escaped quote inside the string.
    const firstEscape = buffer.indexOf(BACKSLASH, start);
    if (firstEscape === -1 || firstEscape >= end)
      return { value: buffer.toString('utf8', start, end), lineEnd: '', end };
    for (const [escaped, lineEnd] of [
      [LF_ESCAPE, '\n'],
      [CRLF_ESCAPE, '\r\n'],
    ] as const) {
      if (firstEscape === end - escaped.length && hasAt(buffer, escaped, firstEscape)) {
        return { value: buffer.toString('utf8', start, firstEscape), lineEnd, end };
      }
    }
    try {
      return { value: JSON.parse(`"${buffer.toString('utf8', start, end)}"`) as string, lineEnd: '', end };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function digitsAt(buffer: Buffer, start: number): number {
  let value = 0;
  let i = start;
  for (; i < buffer.length && buffer[i]! >= 0x30 && buffer[i]! <= 0x39; i++)
    value = value * 10 + buffer[i]! - 0x30;
  return i > start ? value : 0;
}

function decode(data: RgData): string {
  if (data.text !== undefined) return data.text;
  return Buffer.from(data.bytes ?? '', 'base64').toString('utf8');
}

function stripLineEnd(line: string): string {
  if (line.endsWith('\r\n')) return line.slice(0, -2);
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}

/** The UTF-16 index in `text` of its UTF-8 byte `offset` (rg counts bytes). */
function charIndex(text: string, offset: number): number {
  // ASCII up to there (the common case, and any minified bundle): bytes and characters agree.
  let ascii = true;
  for (let i = 0; i < Math.min(offset, text.length); i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return Math.min(offset, text.length);
  return Buffer.from(text, 'utf8').subarray(0, offset).toString('utf8').length;
}
