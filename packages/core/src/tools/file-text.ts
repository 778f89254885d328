import { EOL } from 'node:os';
import { dirname } from 'node:path';
import { fsPromises } from '../utils/fs-async';
import { atomicWriteFile } from './atomic-write';
import { dominantLineEnding, type LineEnding, restoreLineEndings } from './line-endings';
import type { ToolErrorType } from './tool';
import { type RealPathCheck, readFileInside } from './workspace-fs';

export type { LineEnding } from './line-endings';

/**
 * Text-file plumbing shared by the file tools: BOM-aware decoding, line-ending detection, and
 * writing back in the encoding and line endings the file already had, so an edit never silently
 * converts a CRLF or UTF-16 file.
 */

/**
 * `latin1` stands for any BOM-less file that is not valid UTF-8 (Latin-1, Windows-1252, Shift-JIS…):
 * each byte is read as one character and written back as the same byte, so the bytes an edit does
 * not touch stay exactly as they were, whatever the file's real encoding.
 */
export type TextEncodingName = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be' | 'utf32le' | 'utf32be' | 'latin1';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

/** The encoding a byte-order mark announces, or undefined for BOM-less data. */
export function bomEncoding(bytes: Uint8Array): Exclude<TextEncodingName, 'utf8'> | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf8-bom';
  // UTF-32LE starts with the UTF-16LE mark, so it must be checked first.
  if (b0 === 0xff && b1 === 0xfe && b2 === 0x00 && b3 === 0x00) return 'utf32le';
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0xfe && b3 === 0xff) return 'utf32be';
  if (b0 === 0xff && b1 === 0xfe) return 'utf16le';
  if (b0 === 0xfe && b1 === 0xff) return 'utf16be';
  return undefined;
}

const BOM_LENGTH: Record<TextEncodingName, number> = {
  utf8: 0,
  'utf8-bom': 3,
  utf16le: 2,
  utf16be: 2,
  utf32le: 4,
  utf32be: 4,
  latin1: 0,
};

export function decodeText(bytes: Buffer): DecodedText {
  const encoding = bomEncoding(bytes) ?? 'utf8';
  const body = bytes.subarray(BOM_LENGTH[encoding]);
  switch (encoding) {
    case 'utf8':
    case 'utf8-bom': {
      const text = body.toString('utf8');
      // Bytes that are not UTF-8 would come back as U+FFFD: read them one byte per character
      // (a BOM included), so that writing back gives the same bytes.
      if (!roundTrips(text, body)) return { text: bytes.toString('latin1'), encoding: 'latin1' };
      return { text, encoding };
    }
    case 'utf16le':
      return { text: body.toString('utf16le'), encoding };
    case 'utf16be':
      return { text: swapBytes16(body).toString('utf16le'), encoding };
    default:
      return { text: decodeUtf32(body, encoding === 'utf32le'), encoding };
  }
}

/** Whether decoding lost nothing: re-encoding gives the same bytes (a cheap check for pure ASCII). */
function roundTrips(text: string, bytes: Buffer): boolean {
  // Only a replacement character can stand for lost bytes; one in the file itself re-encodes.
  if (!text.includes('\ufffd')) return true;
  return Buffer.byteLength(text, 'utf8') === bytes.length && Buffer.from(text, 'utf8').equals(bytes);
}

/** Text the file's encoding cannot hold (a character above U+00FF in a one-byte-per-character file). */
export class UnencodableTextError extends Error {
  override readonly name = 'UnencodableTextError';
}

export function encodeText(text: string, encoding: TextEncodingName): Buffer {
  switch (encoding) {
    case 'latin1': {
      const bad = /[^\u0000-\u00ff]/.exec(text);
      if (bad) {
        throw new UnencodableTextError(
          `The file is not UTF-8 (its bytes are kept as they are), and the new text has a character it cannot hold: ${JSON.stringify(bad[0])}. Use only characters the file already uses, or convert the file to UTF-8 first.`,
        );
      }
      return Buffer.from(text, 'latin1');
    }
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), swapBytes16(Buffer.from(text, 'utf16le'))]);
    default:
      return encodeUtf32(text, encoding === 'utf32le');
  }
}

function swapBytes16(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  return copy.swap16();
}

function decodeUtf32(bytes: Buffer, littleEndian: boolean): string {
  const codePoints: string[] = [];
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const cp = littleEndian ? bytes.readUInt32LE(i) : bytes.readUInt32BE(i);
    codePoints.push(cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd');
  }
  return codePoints.join('');
}

function encodeUtf32(text: string, littleEndian: boolean): Buffer {
  const codePoints = [0xfeff, ...Array.from(text, (ch) => ch.codePointAt(0)!)];
  const out = Buffer.alloc(codePoints.length * 4);
  codePoints.forEach((cp, i) => {
    if (littleEndian) out.writeUInt32LE(cp, i * 4);
    else out.writeUInt32BE(cp, i * 4);
  });
  return out;
}

/** NUL bytes in the first 4 KiB of BOM-less data mean binary (the heuristic git and grep use). */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bomEncoding(bytes) !== undefined) return false;
  const limit = Math.min(bytes.length, 4096);
  for (let i = 0; i < limit; i++) {
    if (bytes[i] === 0) return true;
  }
  return false;
}

/** The first bytes of a file, enough to sniff whether it is binary. */
export async function readFileHead(path: string, length = 4096): Promise<Buffer> {
  const handle = await (await fsPromises()).open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The ending most of the file's lines use (new lines an edit adds get it). */
export function detectLineEnding(text: string): LineEnding {
  return dominantLineEnding(text);
}

/** Lines split on LF or CRLF; a final newline ends the last line rather than starting another. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** Converts LF (and any CRLF already present) to the wanted ending. */
export function withLineEnding(text: string, ending: LineEnding): string {
  const lf = toLf(text);
  return ending === 'crlf' ? lf.replace(/\n/g, '\r\n') : lf;
}

/** Line ending for a file that does not exist yet: the platform's. */
export function defaultLineEnding(): LineEnding {
  return EOL === '\r\n' ? 'crlf' : 'lf';
}

export interface ExistingText {
  /** Content with CRLF normalised to LF. */
  text: string;
  /** Content as decoded, line endings untouched (to give unchanged lines their own back). */
  raw: string;
  encoding: TextEncodingName;
  lineEnding: LineEnding;
  /** NUL bytes and no byte-order mark: not text an edit can keep byte for byte. */
  binary: boolean;
}

/**
 * Reads a text file for editing; undefined when it does not exist. Other errors propagate. With
 * `inside`, the file is read through a descriptor checked to lie in the workspace.
 */
export async function readExistingText(
  path: string,
  inside?: RealPathCheck,
): Promise<ExistingText | undefined> {
  let bytes: Buffer;
  try {
    bytes = inside ? await readFileInside(path, inside) : await (await fsPromises()).readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const decoded = decodeText(bytes);
  return {
    text: toLf(decoded.text),
    raw: decoded.text,
    encoding: decoded.encoding,
    lineEnding: detectLineEnding(decoded.text),
    binary: looksBinary(bytes),
  };
}

export interface WriteTextFormat {
  encoding: TextEncodingName;
  lineEnding: LineEnding;
  /** The file's text before the edit, as read: lines the edit kept get their own endings back. */
  originalRaw?: string;
}

/**
 * `text` (LF) in the file's line endings: with the original text, every byte outside the span the
 * edit changed stays the original's (line-endings.ts); without it (a new file), all `lineEnding`.
 * Every way of writing an edit (the disk, an editor over ACP) goes through here.
 */
export function textWithLineEndings(text: string, format: Omit<WriteTextFormat, 'encoding'>): string {
  return format.originalRaw === undefined
    ? withLineEnding(text, format.lineEnding)
    : restoreLineEndings(format.originalRaw, toLf(text), format.lineEnding);
}

/**
 * Writes text (LF-normalised) with the given line ending and encoding, creating parent dirs. The
 * write is atomic: a failure or crash leaves the old content, never half of the new. `inside`
 * and `pendingDir` are passed to `atomicWriteFile`.
 */
export async function writeTextFile(
  path: string,
  text: string,
  format: WriteTextFormat,
  options: { inside?: RealPathCheck; pendingDir?: string } = {},
): Promise<void> {
  const withEndings = textWithLineEndings(text, format);
  // Encoded before anything is created: text the encoding cannot hold fails with nothing touched.
  const bytes = encodeText(withEndings, format.encoding);
  await (await fsPromises()).mkdir(dirname(path), { recursive: true });
  await atomicWriteFile(path, bytes, options);
}

/** The tool error type for a Node file-system error, or `fallback` for any other failure. */
export function errnoErrorType(error: unknown, fallback: ToolErrorType): ToolErrorType {
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT':
      return 'file_not_found';
    case 'EACCES':
    case 'EPERM':
      return 'permission_denied';
    case 'ENOSPC':
      return 'no_space_left';
    case 'EISDIR':
      return 'target_is_directory';
    case 'EWORKSPACEESCAPE':
      return 'path_not_in_workspace';
    default:
      return fallback;
  }
}

/** Error types for a failed write. */
export function writeErrorType(error: unknown): ToolErrorType {
  return errnoErrorType(error, 'file_write_failure');
}
