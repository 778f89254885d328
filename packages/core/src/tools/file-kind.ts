import { extname } from 'node:path';
import { looksBinary } from './file-text';

/**
 * What kind of content a file holds, decided from its extension and its first bytes. `read_file`
 * returns text for `text`/`svg` and sends the media kinds (images, PDF, audio, video) to the model
 * as inline data; everything else is refused as binary.
 */
export type FileKind = 'text' | 'svg' | 'image' | 'pdf' | 'audio' | 'video' | 'binary';
export type MediaKind = Extract<FileKind, 'image' | 'pdf' | 'audio' | 'video'>;

export interface FileClass {
  kind: FileKind;
  /** For media kinds: the MIME type sent with the inline data. */
  mimeType?: string;
}

type Signature = (head: Uint8Array) => boolean;

interface MediaFormat {
  kind: MediaKind;
  mimeType: string;
  /**
   * The file must start like this. A model that receives bytes the API cannot decode as the
   * announced type gets a request error on every later turn, so a mislabelled file (a Git LFS
   * pointer named `logo.png`, say) is classified by its content instead.
   */
  signature: Signature;
}

const ascii = (text: string, offset = 0): Signature => {
  const bytes = Array.from(text, (ch) => ch.charCodeAt(0));
  return (head) => bytes.every((byte, i) => head[offset + i] === byte);
};
const bytes = (...values: number[]): Signature => {
  return (head) => values.every((byte, i) => head[i] === byte);
};
const anyOf = (...signatures: Signature[]): Signature => {
  return (head) => signatures.some((signature) => signature(head));
};
const riff = (form: string): Signature => {
  const start = ascii('RIFF');
  const type = ascii(form, 8);
  return (head) => start(head) && type(head);
};
// ISO base media (MP4, MOV, 3GP, HEIF, AVIF): a box size, then the box type at offset 4.
const isoMedia = anyOf(
  ...['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].map((box) => ascii(box, 4)),
);
// MPEG audio frames start with 11 set sync bits; ID3 tags may precede them.
const mpegAudio = anyOf(ascii('ID3'), (head) => head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0);
// AAC in ADTS frames: 12 sync bits and layer 00.
const adts = anyOf(
  ascii('ID3'),
  ascii('ADIF'),
  (head) => head[0] === 0xff && ((head[1] ?? 0) & 0xf6) === 0xf0,
);
// PDF readers accept `%PDF-` anywhere in the first kilobyte.
const pdf: Signature = (head) => Buffer.from(head.subarray(0, 1024)).includes('%PDF-');

const image = (mimeType: string, signature: Signature): MediaFormat => ({
  kind: 'image',
  mimeType,
  signature,
});
const audio = (mimeType: string, signature: Signature): MediaFormat => ({
  kind: 'audio',
  mimeType,
  signature,
});
const video = (mimeType: string, signature: Signature): MediaFormat => ({
  kind: 'video',
  mimeType,
  signature,
});

/** The media formats models accept as inline data, by extension. */
const MEDIA_FORMATS = new Map<string, MediaFormat>([
  ['.png', image('image/png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))],
  ['.jpg', image('image/jpeg', bytes(0xff, 0xd8, 0xff))],
  ['.jpeg', image('image/jpeg', bytes(0xff, 0xd8, 0xff))],
  ['.gif', image('image/gif', anyOf(ascii('GIF87a'), ascii('GIF89a')))],
  ['.webp', image('image/webp', riff('WEBP'))],
  ['.bmp', image('image/bmp', ascii('BM'))],
  ['.heic', image('image/heic', isoMedia)],
  ['.heif', image('image/heif', isoMedia)],
  ['.pdf', { kind: 'pdf', mimeType: 'application/pdf', signature: pdf }],
  ['.mp3', audio('audio/mpeg', mpegAudio)],
  ['.wav', audio('audio/wav', riff('WAVE'))],
  ['.ogg', audio('audio/ogg', ascii('OggS'))],
  ['.flac', audio('audio/flac', ascii('fLaC'))],
  ['.aac', audio('audio/aac', adts)],
  [
    '.aiff',
    audio('audio/aiff', (head) => ascii('FORM')(head) && (ascii('AIFF', 8)(head) || ascii('AIFC', 8)(head))),
  ],
  ['.mp4', video('video/mp4', isoMedia)],
  ['.m4v', video('video/mp4', isoMedia)],
  ['.mov', video('video/quicktime', isoMedia)],
  ['.3gp', video('video/3gpp', isoMedia)],
  ['.webm', video('video/webm', bytes(0x1a, 0x45, 0xdf, 0xa3))],
  ['.avi', video('video/x-msvideo', riff('AVI '))],
  ['.wmv', video('video/x-ms-wmv', bytes(0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11))],
  ['.flv', video('video/x-flv', ascii('FLV'))],
  ['.mpeg', video('video/mpeg', anyOf(bytes(0, 0, 1, 0xba), bytes(0, 0, 1, 0xb3)))],
  ['.mpg', video('video/mpeg', anyOf(bytes(0, 0, 1, 0xba), bytes(0, 0, 1, 0xb3)))],
]);

// Binary formats that models do not take inline, and that may happen to hold no NUL byte early on.
const BINARY = [
  '.ico .tif .tiff .avif .psd .m4a .opus .wma .mkv',
  '.zip .tar .gz .tgz .bz2 .xz .7z .rar .zst .jar .war',
  '.exe .dll .so .dylib .bin .o .a .obj .lib .class .pyc .pyo .wasm',
  '.doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp',
  '.sqlite .db .iso .dmg .woff .woff2 .ttf .otf .eot',
]
  .join(' ')
  .split(' ');
const BINARY_EXTENSIONS = new Set(BINARY);
// `.ts` is also MPEG transport stream; here it is always TypeScript.
const ALWAYS_TEXT = new Set(['.ts', '.mts', '.cts']);

/** Kind (and MIME type for media) of a file, from its name and (a prefix of) its bytes. */
export function classifyFile(path: string, head: Uint8Array): FileClass {
  const ext = extname(path).toLowerCase();
  if (ALWAYS_TEXT.has(ext)) return { kind: 'text' };
  if (ext === '.svg') return { kind: 'svg' };
  const media = MEDIA_FORMATS.get(ext);
  if (media?.signature(head)) return { kind: media.kind, mimeType: media.mimeType };
  if (!media && BINARY_EXTENSIONS.has(ext)) return { kind: 'binary' };
  return { kind: looksBinary(head) ? 'binary' : 'text' };
}

/** Whether a search tool should read the file as text (`text` and `svg`). */
export function isSearchableText(kind: FileKind): boolean {
  return kind === 'text' || kind === 'svg';
}
