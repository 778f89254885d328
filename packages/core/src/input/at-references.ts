import { readFile, stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Part } from '../contracts/messages';
import type { Workspace } from '../tools/workspace';
import {
  findPastedImagePaths,
  type ImageSupport,
  imageMimeType,
  imagePart,
  imageRefusal,
} from './image-references';

/** Per file and in total: attached text is for reading, not for shipping whole trees. */
const MAX_FILE_BYTES = 256 * 1024;
const MAX_TOTAL_BYTES = 1024 * 1024;
const MAX_FILES = 50;

export interface ExpandedPrompt {
  /** What the model gets: the typed text, then the referenced files' contents. */
  text: string;
  /** Workspace-relative paths that were attached (images too; pasted images by their path). */
  attached: string[];
  /** Inline image parts, to send after the text. */
  images: Part[];
  /** Why a reference was skipped (shown to the person, not sent). */
  skipped: string[];
}

export interface AtReferenceOptions {
  workspace: Workspace;
  /** Lists the workspace's files (relative, directories with a trailing `/`). */
  listFiles: () => Promise<string[]>;
  /** Whether the model reads images; without it, images are left out as for an unknown model. */
  images?: ImageSupport;
  /**
   * Whether the project's ignore files exclude a path (`.env`, build output): such a file is not
   * attached, as `read_file` would refuse it. Without it nothing is excluded.
   */
  isIgnored?: (absolutePath: string) => boolean;
  /** References another step handles (`@server:uri` of an MCP server): neither attached nor reported. */
  skip?: (reference: string) => boolean;
}

/** `@path` tokens in a prompt: after a space or at the start, `\ ` escaping a space. */
export function findAtReferences(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)@((?:\\ |[^\s])+)/g)) {
    const path = match[1]!.replace(/\\ /g, ' ');
    if (path !== '' && !found.includes(path)) found.push(path);
  }
  return found;
}

/**
 * Attaches the files a prompt references with `@path` (a file, or a directory's files) in the
 * layout Gemini CLI uses, so models and habits carry over:
 * the typed text, `--- Content from referenced files ---`, then `Content from @<path>:` and the
 * text of each file, then `--- End of content ---`. Paths outside the workspace, missing,
 * ignored or binary files are skipped and reported; the prompt is still sent as typed.
 */
export async function expandAtReferences(text: string, options: AtReferenceOptions): Promise<ExpandedPrompt> {
  const references = findAtReferences(text).filter((reference) => !options.skip?.(reference));
  const skipped: string[] = [];
  const images: Part[] = [];
  const attached: string[] = [];
  const support = options.images ?? { model: 'this model', accepted: undefined };
  const addImage = async (path: string, display: string) => {
    const refusal = imageRefusal(support);
    if (refusal) {
      skipped.push(`${display}: ${refusal}`);
      return;
    }
    const result = await imagePart(path);
    if ('error' in result) skipped.push(`${display}: ${result.error}`);
    else {
      images.push(result.part);
      attached.push(display.replace(/^@/, ''));
    }
  };
  // Pasted image paths: the person put the file's path in the prompt, wherever the file is.
  for (const path of findPastedImagePaths(text)) await addImage(path, path);
  if (references.length === 0) return { text, attached, skipped, images };
  const { workspace } = options;
  const files: string[] = [];
  let listing: string[] | undefined;
  for (const reference of references) {
    const resolved = workspace.resolvePath(reference);
    if (!resolved.ok) {
      skipped.push(`@${reference}: ${resolved.error.message}`);
      continue;
    }
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(resolved.path)).isDirectory();
    } catch {
      skipped.push(`@${reference}: not found`);
      continue;
    }
    const rel = relative(workspace.cwd, resolved.path).split('\\').join('/');
    if (!isDirectory) {
      if (options.isIgnored?.(resolved.path)) {
        skipped.push(`@${reference}: excluded by the project's ignore files`);
        continue;
      }
      files.push(resolved.path);
      continue;
    }
    listing ??= await options.listFiles();
    const prefix = rel === '' ? '' : `${rel}/`;
    const inside = listing.filter((entry) => entry.startsWith(prefix) && !entry.endsWith('/'));
    if (inside.length === 0) skipped.push(`@${reference}: no files (or all ignored)`);
    for (const entry of inside) files.push(workspace.absolute(entry));
  }

  const blocks: string[] = [];
  let total = 0;
  for (const path of [...new Set(files)]) {
    const display = relative(workspace.cwd, path).split('\\').join('/');
    if (imageMimeType(path)) {
      await addImage(path, `@${display}`);
      continue;
    }
    if (attached.length >= MAX_FILES) {
      skipped.push(`@${display}: more than ${MAX_FILES} files referenced`);
      continue;
    }
    let data: Buffer;
    try {
      data = await readFile(path);
    } catch (error) {
      skipped.push(`@${display}: ${(error as Error).message}`);
      continue;
    }
    if (data.includes(0)) {
      skipped.push(`@${display}: binary file`);
      continue;
    }
    if (data.length > MAX_FILE_BYTES || total + data.length > MAX_TOTAL_BYTES) {
      skipped.push(`@${display}: too large to attach (${Math.round(data.length / 1024)} KiB)`);
      continue;
    }
    total += data.length;
    attached.push(display);
    blocks.push(`\nContent from @${display}:\n${data.toString('utf8')}`);
  }
  if (blocks.length === 0) return { text, attached, skipped, images };
  return {
    text: `${text}\n--- Content from referenced files ---${blocks.join('')}\n--- End of content ---`,
    attached,
    skipped,
    images,
  };
}
