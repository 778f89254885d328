// The code cache's files (see code-cache.ts): where they live, their header, their checksum, and
// how they are written. Its own module because two things read them: the loader of the entry
// itself (entry.ts, which runs before the rest of kodo is loaded) and code-cache.ts.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

const MAGIC = 0x6b6f6463; // "kodc"
/** Magic, checksum, source size, build (see SourceStamp). */
const HEADER_BYTES = 4 + 4 + 8 + 8;
/** What Node's CommonJS loader wraps a module's source in; the cached script is the wrapped source. */
export const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) { ';
export const WRAPPER_END = '\n})';

export interface SourceStamp {
  size: number;
  /** The build id's hash, or the file's mtime without a build id. */
  build: number;
}

/**
 * The cache directory for this Node and these V8 flags under `base`. V8 refuses a cache made
 * under other flags (`--max-old-space-size`, `--stack-size`…, from the command line or
 * NODE_OPTIONS), so each combination keeps its own instead of overwriting the others' every run.
 */
export function codeCacheDir(base: string): string {
  const flags = `${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`;
  return join(base, `${process.version}-${fnv1a(flags).toString(16)}`);
}

export function fnv1a(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = 0; index < text.length; index += 1)
    hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return hash >>> 0;
}

export function readCache(cacheFile: string, stamp: SourceStamp): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (bytes.length <= HEADER_BYTES || bytes.readUInt32LE(0) !== MAGIC) return undefined;
  if (bytes.readDoubleLE(8) !== stamp.size || bytes.readDoubleLE(16) !== stamp.build) return undefined;
  const data = bytes.subarray(HEADER_BYTES);
  return bytes.readInt32LE(4) === sampledChecksum(data) ? data : undefined;
}

/**
 * Release builds of V8 do not checksum a code cache, and damaged bytecode crashes the process, so
 * kodo checks one 32-bit word in every 64 (one per 256 bytes, ~10 µs for the start-up path). That
 * catches what storage actually does to a file (zeroed or garbage blocks); the write below makes
 * a torn file impossible in the first place.
 */
function sampledChecksum(data: Buffer): number {
  // Through a DataView: Buffer#readInt32LE validates its offset through a wrapper that allocates
  // on every call, ~130 KB of garbage for the start-up path's caches before the first request.
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let hash = 0x811c9dc5 | 0;
  const lastWord = data.length - 4;
  for (let offset = 0; offset <= lastWord; offset += 256)
    hash = Math.imul(hash ^ view.getInt32(offset, true), 16777619);
  if (lastWord >= 0) hash = Math.imul(hash ^ view.getInt32(lastWord, true), 16777619);
  return Math.imul(hash ^ data.length, 16777619);
}

/**
 * Written beside, flushed to disk and renamed into place: concurrent runs and a power cut never
 * leave half a file under the real name. Best effort: a read-only install runs without a cache.
 */
export function writeCache(cacheFile: string, stamp: SourceStamp, data: Buffer): void {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeInt32LE(sampledChecksum(data), 4);
  header.writeDoubleLE(stamp.size, 8);
  header.writeDoubleLE(stamp.build, 16);
  const temp = join(dirname(cacheFile), `.${basename(cacheFile)}.${process.pid}`);
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, header);
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, cacheFile);
  } catch {
    rmSync(temp, { force: true });
  }
}
