import { extname } from 'node:path';
import { looksBinary } from './file-text';

/**
 * What kind of content a file holds, decided from its extension first and its bytes second.
 * `read_file` returns text for `text`/`svg`; the media kinds are where inline data for the model
 * (images, PDF, audio, video) plugs in later — for now they are reported like other binaries.
 */
export type FileKind = 'text' | 'svg' | 'image' | 'pdf' | 'audio' | 'video' | 'binary';

// Space-separated lists keep these tables short.
const IMAGE = '.png .jpg .jpeg .gif .webp .bmp .ico .tif .tiff .heic .heif .avif'.split(' ');
const AUDIO = '.mp3 .wav .ogg .flac .aac .m4a .aiff .opus .wma'.split(' ');
const VIDEO = '.mp4 .mov .avi .mkv .webm .wmv .flv .mpeg .mpg .m4v .3gp'.split(' ');
// Formats that are binary even when their first bytes happen to contain no NUL.
const BINARY = [
  '.zip .tar .gz .tgz .bz2 .xz .7z .rar .zst .jar .war',
  '.exe .dll .so .dylib .bin .o .a .obj .lib .class .pyc .pyo .wasm',
  '.doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp',
  '.sqlite .db .iso .dmg .woff .woff2 .ttf .otf .eot .psd',
]
  .join(' ')
  .split(' ');
const EXTENSION_KIND = new Map<string, FileKind>([
  ...IMAGE.map((ext) => [ext, 'image'] as const),
  ...AUDIO.map((ext) => [ext, 'audio'] as const),
  ...VIDEO.map((ext) => [ext, 'video'] as const),
  ...BINARY.map((ext) => [ext, 'binary'] as const),
  ['.pdf', 'pdf'],
  ['.svg', 'svg'],
]);
// `.ts` is also MPEG transport stream; here it is always TypeScript.
const ALWAYS_TEXT = new Set(['.ts', '.mts', '.cts']);

/** Kind of a file from its name and (a prefix of) its bytes. */
export function classifyFile(path: string, head: Uint8Array): FileKind {
  const ext = extname(path).toLowerCase();
  if (ALWAYS_TEXT.has(ext)) return 'text';
  const byExtension = EXTENSION_KIND.get(ext);
  if (byExtension) return byExtension;
  return looksBinary(head) ? 'binary' : 'text';
}
