/**
 * Substituting values into a shell command written by someone else (a hook command, a custom
 * command's `!{…}` step) so that each value arrives as literal text, whatever it holds: quoted
 * for the place the placeholder stands in, as bash reads that place.
 *
 * A small lexer follows bash's quoting as far as it needs to: bare words (at the top level and
 * inside `$(…)`), double quotes, single quotes and `$'…'`. Where a value cannot be quoted
 * reliably — inside backquotes, `${…}`, `$((…))`, a comment, a here-document, or after a `case`
 * inside `$(…)` (whose `)` the lexer cannot tell from the substitution's end) — the caller
 * decides (hooks leave the variable for the shell to expand; commands refuse).
 */

/** Where a placeholder stands, as far as quoting goes. */
export type ShellQuoteContext = 'bare' | 'double' | 'single' | 'ansi-c';

/** Places a value cannot be quoted reliably. */
export type UnquotableContext =
  | 'backquotes'
  | 'parameter'
  | 'arithmetic'
  | 'comment'
  | 'here-document'
  | 'case-in-substitution';

/** A placeholder found at an index: where it ends and the value it stands for. */
export interface ShellPlaceholder {
  end: number;
  value: string;
}

export interface ShellSubstitution {
  /** Whether a placeholder starts at `index`. */
  find(command: string, index: number): ShellPlaceholder | undefined;
  /** What to write for a placeholder in an unquotable place (its text as written, or throw). */
  unquotable(context: UnquotableContext, placeholder: string): string;
  /** How a value is quoted as a bare word; by default single quotes unless it is plain. */
  quoteBare?: (value: string) => string;
}

type Frame =
  | { kind: 'bare'; inSubstitution: boolean; parens: number }
  | { kind: 'double' | 'single' | 'ansi-c' | 'backquotes' | 'comment' }
  | { kind: 'parameter'; braces: number }
  | { kind: 'arithmetic'; parens: number };

/** Replaces every placeholder `find` recognizes, each quoted for where it stands. */
export function substituteShellPlaceholders(command: string, substitution: ShellSubstitution): string {
  const stack: Frame[] = [{ kind: 'bare', inSubstitution: false, parens: 0 }];
  let hereDocument = false;
  let lost = false;
  let out = '';
  let index = 0;
  while (index < command.length) {
    const found = substitution.find(command, index);
    if (found) {
      const placeholder = command.slice(index, found.end);
      const unquotable = hereDocument
        ? 'here-document'
        : lost
          ? 'case-in-substitution'
          : unquotableContext(stack);
      out += unquotable
        ? substitution.unquotable(unquotable, placeholder)
        : quoteFor(
            found.value,
            stack.at(-1)!.kind as ShellQuoteContext,
            substitution.quoteBare ?? shellQuote,
          );
      index = found.end;
      continue;
    }
    const step = advance(command, index, stack);
    if (step.hereDocument) hereDocument = true;
    if (step.lost) lost = true;
    out += command.slice(index, step.next);
    index = step.next;
  }
  return out;
}

/** A word bash reads back as `value`: unchanged when it is plain, else single-quoted. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_/.,:@%+=-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, "'\\''")}'`;
}

function quoteFor(value: string, context: ShellQuoteContext, quoteBare: (value: string) => string): string {
  switch (context) {
    case 'double':
      return value.replace(/[\\"$`]/g, '\\$&');
    case 'single':
      return value.replace(/'/g, "'\\''");
    case 'ansi-c':
      return value.replace(/[\\']/g, '\\$&');
    default:
      return quoteBare(value);
  }
}

function unquotableContext(stack: readonly Frame[]): UnquotableContext | undefined {
  for (const frame of stack) {
    if (
      frame.kind === 'backquotes' ||
      frame.kind === 'parameter' ||
      frame.kind === 'arithmetic' ||
      frame.kind === 'comment'
    ) {
      return frame.kind === 'backquotes' ? 'backquotes' : frame.kind;
    }
  }
  return undefined;
}

/** Characters after which a `#` starts a comment and `case` is a keyword. */
const WORD_BREAK = /[\s;&|()<>]/;

/** Moves the lexer past one character (or one token such as `$(`), updating the stack. */
function advance(
  command: string,
  index: number,
  stack: Frame[],
): { next: number; hereDocument?: boolean; lost?: boolean } {
  const frame = stack.at(-1)!;
  const char = command[index]!;
  const next2 = command.slice(index, index + 2);
  const atWordStart = index === 0 || WORD_BREAK.test(command[index - 1]!);
  switch (frame.kind) {
    case 'single':
      if (char === "'") stack.pop();
      return { next: index + 1 };
    case 'ansi-c':
      if (char === '\\') return { next: index + 2 };
      if (char === "'") stack.pop();
      return { next: index + 1 };
    case 'backquotes':
      if (char === '\\') return { next: index + 2 };
      if (char === '`') stack.pop();
      return { next: index + 1 };
    case 'comment':
      if (char === '\n') stack.pop();
      return { next: index + 1 };
    case 'arithmetic':
      if (char === '(') frame.parens += 1;
      else if (char === ')') {
        if (frame.parens === 0) {
          stack.pop();
          return { next: index + 2 }; // `))`
        }
        frame.parens -= 1;
      }
      return { next: index + 1 };
    case 'parameter':
      if (char === '{') frame.braces += 1;
      else if (char === '}') {
        if (frame.braces === 0) stack.pop();
        else frame.braces -= 1;
        return { next: index + 1 };
      }
      return openQuoteOrSubstitution(command, index, stack) ?? { next: index + 1 };
    case 'double':
      if (char === '"') {
        stack.pop();
        return { next: index + 1 };
      }
      return openQuoteOrSubstitution(command, index, stack) ?? { next: index + 1 };
    default: {
      if (char === '#' && atWordStart) {
        stack.push({ kind: 'comment' });
        return { next: index + 1 };
      }
      if (next2 === '<<' && command[index + 2] !== '<') return { next: index + 2, hereDocument: true };
      if (next2 === '<<') return { next: index + 3 }; // A here-string's word is an ordinary word.
      if (
        frame.inSubstitution &&
        atWordStart &&
        command.startsWith('case', index) &&
        !/\w/.test(command[index + 4] ?? '')
      ) {
        return { next: index + 4, lost: true };
      }
      if (char === '(') {
        frame.parens += 1;
        return { next: index + 1 };
      }
      if (char === ')') {
        if (frame.parens > 0) frame.parens -= 1;
        else if (frame.inSubstitution) stack.pop();
        return { next: index + 1 };
      }
      return openQuoteOrSubstitution(command, index, stack) ?? { next: index + 1 };
    }
  }
}

/** `\x`, quotes, `$'`, `$"`, backquotes, `$(`, `$((` and `${`: what opens a new context. */
function openQuoteOrSubstitution(
  command: string,
  index: number,
  stack: Frame[],
): { next: number } | undefined {
  const frame = stack.at(-1)!;
  const char = command[index]!;
  const inDouble = frame.kind === 'double';
  if (char === '\\') return { next: index + 2 };
  if (char === '`') {
    stack.push({ kind: 'backquotes' });
    return { next: index + 1 };
  }
  if (!inDouble && char === "'") {
    stack.push({ kind: 'single' });
    return { next: index + 1 };
  }
  if (!inDouble && char === '"') {
    stack.push({ kind: 'double' });
    return { next: index + 1 };
  }
  if (char !== '$') return undefined;
  const after = command[index + 1];
  if (!inDouble && after === "'") {
    stack.push({ kind: 'ansi-c' });
    return { next: index + 2 };
  }
  if (!inDouble && after === '"') {
    stack.push({ kind: 'double' });
    return { next: index + 2 };
  }
  if (after === '(' && command[index + 2] === '(') {
    stack.push({ kind: 'arithmetic', parens: 0 });
    return { next: index + 3 };
  }
  if (after === '(') {
    stack.push({ kind: 'bare', inSubstitution: true, parens: 0 });
    return { next: index + 2 };
  }
  if (after === '{') {
    stack.push({ kind: 'parameter', braces: 0 });
    return { next: index + 2 };
  }
  return undefined;
}
