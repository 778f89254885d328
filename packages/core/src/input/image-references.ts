import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Part } from '../contracts/messages';
import { MAX_IMAGE_BYTES } from './image-limits';

/**
 * Images in a prompt: `@shot.png` (a workspace file) or the path of an image file pasted into
 * the prompt (what a terminal pastes for a file dragged in or copied: absolute, maybe quoted,
 * with `\ ` for spaces, or a `file://` URL). They become inline image parts for a model the
 * model table says reads images; for any other model they are left out with a note saying why.
 */

/** The image types every provider kodo speaks to accepts inline. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

export { MAX_IMAGE_BYTES } from './image-limits';

export function imageMimeType(path: string): string | undefined {
  return IMAGE_TYPES[extname(path).toLowerCase()];
}

/** Whether and why images can go to this model. */
export interface ImageSupport {
  model: string;
  /** From the model table: true, false, or undefined for a model it does not list. */
  accepted: boolean | undefined;
}

export function imageRefusal(support: ImageSupport): string | undefined {
  if (support.accepted === true) return undefined;
  return support.accepted === false
    ? `${support.model} reads text only, so the image was not sent`
    : `${support.model} is not known to read images (kodo's model table does not list it), so the image was not sent`;
}

/** An image file as an inline part, or why it cannot be one. */
export async function imagePart(path: string): Promise<{ part: Part } | { error: string }> {
  const mimeType = imageMimeType(path);
  if (!mimeType) return { error: 'not an image kodo can attach (PNG, JPEG, WebP or GIF)' };
  try {
    const info = await stat(path);
    if (!info.isFile()) return { error: 'not a file' };
    if (info.size > MAX_IMAGE_BYTES) {
      return {
        error: `image too large to attach (${(info.size / 1024 / 1024).toFixed(1)} MiB, at most 5 MiB)`,
      };
    }
    return { part: { inlineData: { mimeType, data: (await readFile(path)).toString('base64') } } };
  } catch (error) {
    return {
      error: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : (error as Error).message,
    };
  }
}

/**
 * Pasted image paths in a prompt: absolute (or `~/`) paths and `file://` URLs that end in an
 * image extension, bare, quoted, or with escaped spaces. `@` references are not included (they
 * are workspace paths, handled with the other `@` files).
 */
export function findPastedImagePaths(text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:^|\s)(?:'([^'\n]+)'|"([^"\n]+)"|((?:\\ |[^\s'"@])(?:\\ |\S)*))/g;
  for (const match of text.matchAll(pattern)) {
    const raw = (match[1] ?? match[2] ?? match[3] ?? '').replace(/\\ /g, ' ');
    const path = toPath(raw);
    if (path && imageMimeType(path) && !found.includes(path)) found.push(path);
  }
  return found;
}

function toPath(raw: string): string | undefined {
  if (raw.startsWith('file://')) {
    try {
      return fileURLToPath(raw);
    } catch {
      return undefined;
    }
  }
  if (raw.startsWith('~/')) return `${homedir()}${raw.slice(1)}`;
  return isAbsolute(raw) ? raw : undefined;
}
