/**
 * Reads apply_patch text into file operations. It accepts exactly what `APPLY_PATCH_GRAMMAR`
 * (grammar.ts) accepts, line by line, so that a patch the model was constrained to write always
 * parses, and one written without the constraint is refused for the same reasons. A refusal names
 * the line, the file section and the hunk, in words the model can act on. Whether the paths exist
 * and the hunks fit the files is decided later (plan.ts, apply-hunks.ts).
 */

export interface HunkLine {
  kind: 'context' | 'remove' | 'add';
  /** The line without its one-character prefix. */
  text: string;
}

export interface Hunk {
  /** The text of each `@@` line before the hunk's lines (`@@` alone gives none). */
  anchors: string[];
  lines: HunkLine[];
  /** `*** End of File` followed: the hunk's old lines end the file. */
  endOfFile: boolean;
  /** Line of the patch where the hunk starts (1-based). */
  line: number;
}

interface OperationBase {
  /** The path as written, trailing whitespace dropped. */
  path: string;
  /** Line of the patch with the operation's header (1-based). */
  line: number;
}

export type PatchOperation =
  | (OperationBase & { kind: 'add'; lines: string[] })
  | (OperationBase & { kind: 'delete' })
  | (OperationBase & { kind: 'update'; moveTo?: string; hunks: Hunk[] });

export type ParsedPatch = { ok: true; operations: PatchOperation[] } | { ok: false; message: string };

export const BEGIN_PATCH = '*** Begin Patch';
export const END_PATCH = '*** End Patch';
export const END_OF_FILE = '*** End of File';
const MOVE_TO = '*** Move to: ';
const HEADERS = {
  '*** Add File: ': 'add',
  '*** Delete File: ': 'delete',
  '*** Update File: ': 'update',
} as const;
type HeaderKind = (typeof HEADERS)[keyof typeof HEADERS];
const NEXT_SECTION = `the next "*** Add File: ", "*** Delete File: " or "*** Update File: " header, or "${END_PATCH}"`;

/** A refusal: where it happened (line, section, hunk) and why. */
class PatchSyntaxError extends Error {}

/** The header of an operation as it appears in messages: `"*** Update File: src/app.ts"`. */
export function operationLabel(operation: Pick<PatchOperation, 'kind' | 'path'>): string {
  const header = Object.entries(HEADERS).find(([, kind]) => kind === operation.kind)![0];
  return `"${header}${operation.path}"`;
}

export function parsePatch(text: string): ParsedPatch {
  try {
    return { ok: true, operations: new PatchReader(text).read() };
  } catch (error) {
    if (error instanceof PatchSyntaxError) return { ok: false, message: error.message };
    throw error;
  }
}

class PatchReader {
  private readonly lines: string[];
  private index = 0;

  constructor(text: string) {
    // Only "*** End Patch" may go without a newline, and it must be last: one trailing newline
    // ends the last line instead of starting another.
    this.lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  }

  read(): PatchOperation[] {
    const carriageReturn = this.lines.findIndex((line) => line.includes('\r'));
    if (carriageReturn !== -1) {
      this.fail(
        carriageReturn,
        "the line contains a carriage return (\\r). A patch uses LF line endings only, whatever the files use: kodo keeps each file's own endings.",
      );
    }
    if (this.lines[0] !== BEGIN_PATCH) {
      this.fail(0, `a patch starts with the line "${BEGIN_PATCH}", found ${quote(this.lines[0]!)}.`);
    }
    this.index = 1;
    const operations: PatchOperation[] = [];
    for (;;) {
      const line = this.lines[this.index];
      if (line === undefined) {
        this.fail(this.lines.length - 1, `the patch ends without "${END_PATCH}".`);
      }
      if (line === END_PATCH) {
        if (operations.length === 0) {
          this.fail(this.index, 'the patch has no file operation: add, delete or update at least one file.');
        }
        if (this.index !== this.lines.length - 1) {
          this.fail(this.index + 1, `nothing may follow "${END_PATCH}".`);
        }
        return operations;
      }
      const header = this.header(line);
      if (!header) {
        // A stray line inside an update names the hunk it broke off, so the model knows where to look.
        const previous = operations.at(-1);
        const hunk = previous?.kind === 'update' && line !== '' ? previous.hunks.length : undefined;
        this.fail(this.index, this.unexpected(line, previous), hunk ? previous : undefined, hunk);
      }
      operations.push(this.operation(header));
    }
  }

  private operation(header: { kind: HeaderKind; path: string }): PatchOperation {
    const line = this.index + 1;
    this.index++;
    switch (header.kind) {
      case 'add': {
        const lines: string[] = [];
        while (this.lines[this.index]?.startsWith('+')) lines.push(this.lines[this.index++]!.slice(1));
        return { kind: 'add', path: header.path, line, lines };
      }
      case 'delete':
        return { kind: 'delete', path: header.path, line };
      case 'update':
        return this.update(header.path, line);
    }
  }

  private update(path: string, line: number): PatchOperation {
    const operation = { kind: 'update' as const, path, line };
    const moveLine = this.lines[this.index];
    let moveTo: string | undefined;
    if (moveLine?.startsWith(MOVE_TO)) {
      moveTo = this.path(moveLine.slice(MOVE_TO.length), operation, '"*** Move to: "');
      this.index++;
    }
    const hunks: Hunk[] = [];
    let current: Hunk | undefined;
    for (let next = this.lines[this.index]; next !== undefined; next = this.lines[this.index]) {
      if (next === '@@' || next.startsWith('@@ ')) {
        if (!current || current.lines.length > 0) {
          current = { anchors: [], lines: [], endOfFile: false, line: this.index + 1 };
          hunks.push(current);
        }
        if (next !== '@@') current.anchors.push(next.slice(3));
      } else if (next[0] === ' ' || next[0] === '-' || next[0] === '+') {
        if (!current) {
          current = { anchors: [], lines: [], endOfFile: false, line: this.index + 1 };
          hunks.push(current);
        }
        current.lines.push({ kind: HUNK_KINDS[next[0]]!, text: next.slice(1) });
      } else if (next === END_OF_FILE) {
        if (!current || current.lines.length === 0) {
          this.fail(this.index, `"${END_OF_FILE}" must follow the lines of a hunk.`, operation, hunks.length);
        }
        current.endOfFile = true;
        this.index++;
        break;
      } else if (next.startsWith('@@')) {
        this.fail(
          this.index,
          `a hunk header is "@@" alone or "@@ " followed by a line of the file; found ${quote(next)}.`,
          operation,
          hunks.length + (current && current.lines.length === 0 ? 0 : 1),
        );
      } else {
        break;
      }
      this.index++;
    }
    if (current && current.lines.length === 0) {
      const next = this.lines[this.index];
      const found =
        next === undefined || next === END_PATCH ? '' : ` Line ${this.index + 1} is ${quote(next)}.`;
      this.fail(
        current.line - 1,
        `the hunk has "@@" lines but no lines of its own (each starting with " ", "-" or "+").${found}`,
        operation,
        hunks.length,
      );
    }
    if (hunks.length === 0 && moveTo === undefined) {
      this.fail(
        this.index,
        `${operationLabel(operation)} has no hunk: give the lines to change (" " context, "-" removed, "+" added), or a "*** Move to: " line.`,
      );
    }
    return { ...operation, ...(moveTo !== undefined ? { moveTo } : {}), hunks };
  }

  private header(line: string): { kind: HeaderKind; path: string } | undefined {
    for (const [prefix, kind] of Object.entries(HEADERS)) {
      if (line.startsWith(prefix)) {
        const path = this.path(line.slice(prefix.length), undefined, `"${prefix}"`);
        return { kind, path };
      }
    }
    return undefined;
  }

  /** The grammar's PATH: something other than a space or tab first; trailing whitespace is dropped. */
  private path(text: string, operation: Pick<PatchOperation, 'kind' | 'path'> | undefined, after: string) {
    if (text === '' || text[0] === ' ' || text[0] === '\t') {
      this.fail(this.index, `a path must follow ${after} directly (no space before it).`, operation);
    }
    return text.trimEnd();
  }

  /** Why a line where a header was expected is not one, with what came before it. */
  private unexpected(line: string, previous: PatchOperation | undefined): string {
    const found = `found ${quote(line)}`;
    if (line.startsWith(MOVE_TO)) {
      return `"${MOVE_TO}" belongs on the line right after "*** Update File: ".`;
    }
    if (line.startsWith('***')) {
      return `expected ${NEXT_SECTION}; ${found}. Headers are spelled exactly so, with one space after the colon.`;
    }
    if (previous?.kind === 'add') {
      return `in ${operationLabel(previous)}, every line of the new file starts with "+"; ${found}.`;
    }
    if (previous?.kind === 'update') {
      const hunk = previous.hunks.length;
      if (line === '') {
        return `in hunk ${hunk} of ${operationLabel(previous)}, an empty line: every hunk line starts with " ", "-" or "+" (an empty context line is a single space).`;
      }
      const after = previous.hunks.at(-1)?.endOfFile
        ? ` "${END_OF_FILE}" ends the last hunk of a file.`
        : ' Every hunk line starts with " ", "-" or "+".';
      return `expected a hunk line or ${NEXT_SECTION}; ${found}.${after}`;
    }
    return `expected ${NEXT_SECTION}; ${found}.`;
  }

  private fail(
    index: number,
    message: string,
    operation?: Pick<PatchOperation, 'kind' | 'path'>,
    hunk?: number,
  ): never {
    const where = operation
      ? hunk !== undefined && hunk > 0
        ? ` (hunk ${hunk} of ${operationLabel(operation)})`
        : ` (${operationLabel(operation)})`
      : '';
    throw new PatchSyntaxError(`Invalid patch at line ${index + 1}${where}: ${message}`);
  }
}

const HUNK_KINDS: Record<string, HunkLine['kind']> = { ' ': 'context', '-': 'remove', '+': 'add' };

function quote(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}
