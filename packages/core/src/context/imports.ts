import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isInside } from '../tools/workspace';

const MAX_IMPORT_DEPTH = 5;

export interface ImportOptions {
  /** Directories imported files must lie inside (project root, home config dir…). */
  allowedRoots: readonly string[];
  /** Told the absolute path of each file an import brought in. */
  onImported?: (path: string) => void;
}

/**
 * Expands `@path` imports in a context file, recursively: `@` at the start of
 * the text or after whitespace, a path up to the next whitespace starting with `.`, `/` or a
 * letter, outside code spans and fences. Depth is capped at 5; a file already on the current
 * chain, or outside the allowed roots, becomes an explanatory HTML comment instead.
 */
export async function expandImports(
  text: string,
  filePath: string,
  options: ImportOptions,
  chain: readonly string[] = [filePath],
): Promise<string> {
  // Most context files import nothing: no `@`, no import, and neither pattern below is compiled
  // (V8 compiles a regular expression at its first use, ~0.1 ms each for these two).
  if (!text.includes('@')) return text;
  const pieces = splitCode(text);
  const out: string[] = [];
  for (const piece of pieces) {
    if (piece.code) {
      out.push(piece.text);
      continue;
    }
    out.push(await expandInProse(piece.text, filePath, options, chain));
  }
  return out.join('');
}

async function expandInProse(
  text: string,
  filePath: string,
  options: ImportOptions,
  chain: readonly string[],
): Promise<string> {
  const pattern = /(^|\s)@([./A-Za-z][^\s]*)/g;
  let result = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index! + match[1]!.length;
    result += text.slice(last, start);
    last = start + 1 + match[2]!.length;
    result += await importOne(match[2]!, filePath, options, chain);
  }
  return result + text.slice(last);
}

async function importOne(
  rawPath: string,
  fromFile: string,
  options: ImportOptions,
  chain: readonly string[],
): Promise<string> {
  // Trailing sentence punctuation is not part of a path.
  const wanted = rawPath.replace(/[.,;:!?)]+$/, '');
  const target = isAbsolute(wanted) ? resolve(wanted) : resolve(dirname(fromFile), wanted);
  if (!options.allowedRoots.some((root) => isInside(root, target))) {
    return `<!-- Import failed: ${wanted} - Path traversal attempt -->`;
  }
  if (chain.includes(target)) return `<!-- File already processed: ${wanted} -->`;
  if (chain.length > MAX_IMPORT_DEPTH)
    return `<!-- Import failed: ${wanted} - Maximum import depth (${MAX_IMPORT_DEPTH}) reached -->`;
  let content: string;
  try {
    // Synchronous, like the context files themselves (memory-files.ts): read before the first
    // request, where fs/promises alone costs ~1 ms to load.
    content = readFileSync(target, 'utf8');
  } catch (error) {
    return `<!-- Import failed: ${wanted} - ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} -->`;
  }
  options.onImported?.(target);
  const expanded = await expandImports(content, target, options, [...chain, target]);
  return `<!-- Imported from: ${wanted} -->\n${expanded.trim()}\n<!-- End of import from: ${wanted} -->`;
}

/** Splits text into prose and code (fenced blocks and inline code spans), in order. */
function splitCode(text: string): { text: string; code: boolean }[] {
  const pieces: { text: string; code: boolean }[] = [];
  const pattern = /(^|\n)(```|~~~)[\s\S]*?(\n\2[^\n]*(?=\n|$)|$)|`[^`\n]*`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index!;
    if (start > last) pieces.push({ text: text.slice(last, start), code: false });
    pieces.push({ text: match[0], code: true });
    last = start + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), code: false });
  return pieces;
}
