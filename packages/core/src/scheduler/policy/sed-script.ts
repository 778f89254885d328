/**
 * What a sed script does besides printing: `w`/`W` commands and the `w` flag of `s` write a
 * file, `e` and the `e` flag run a command. A script the scanner does not positively understand
 * counts as running something, so the shell policy asks (it fails closed, as the shell parser).
 * The grammar is GNU sed's, which is a superset of the BSD and POSIX ones.
 */

export type SedEffect = { kind: 'writes'; file: string } | { kind: 'runs'; what: string };

/** Simple commands with no argument (`l`, `q`, `Q`, `L` may take a number). */
const PLAIN_COMMANDS = new Set('=dDgGhHlnNpPxzFqQL');
/** Where a label, file name or text of one command ends. */
const COMMAND_END = /[;\n]/;

/** The files a script writes and what it runs; `runs` for anything not understood. */
export function sedScriptEffects(script: string): SedEffect[] {
  const effects: SedEffect[] = [];
  const scanner = new Scanner(script);
  try {
    while (scanner.skipSeparators()) {
      if (scanner.peek() === '#') {
        scanner.restOfLine();
        continue;
      }
      scanner.address();
      if (scanner.peek() === ',') {
        scanner.next();
        scanner.address();
      }
      scanner.skipBlanks();
      if (scanner.peek() === '!') {
        scanner.next();
        scanner.skipBlanks();
      }
      command(scanner, effects);
    }
  } catch (error) {
    if (!(error instanceof NotUnderstood)) throw error;
    return [...effects, { kind: 'runs', what: `a sed script it cannot read (${error.message})` }];
  }
  return effects;
}

function command(scanner: Scanner, effects: SedEffect[]): void {
  const name = scanner.next();
  if (name === '{' || name === '}') return;
  if (PLAIN_COMMANDS.has(name)) {
    scanner.skipBlanks();
    while (/\d/.test(scanner.peek())) scanner.next();
  } else if (name === 'a' || name === 'i' || name === 'c') {
    scanner.text();
    return; // The text runs to the end of the line.
  } else if (name === 'b' || name === 't' || name === 'T' || name === ':' || name === 'v') {
    scanner.upTo(COMMAND_END);
  } else if (name === 'r' || name === 'R') {
    scanner.restOfLine();
    return;
  } else if (name === 'w' || name === 'W') {
    effects.push(written(scanner.restOfLine()));
    return;
  } else if (name === 'e') {
    effects.push({ kind: 'runs', what: 'the sed command e' });
    scanner.restOfLine();
    return;
  } else if (name === 's') {
    substitute(scanner, effects);
  } else if (name === 'y') {
    const delimiter = scanner.delimiter();
    scanner.delimited(delimiter);
    scanner.delimited(delimiter);
  } else {
    throw new NotUnderstood(`the command ${JSON.stringify(name)}`);
  }
  scanner.endOfCommand();
}

/** `s/re/replacement/flags`: the `e` flag runs the pattern space, `w file` writes. */
function substitute(scanner: Scanner, effects: SedEffect[]): void {
  const delimiter = scanner.delimiter();
  scanner.delimited(delimiter);
  scanner.delimited(delimiter);
  for (;;) {
    const flag = scanner.peek();
    if (flag === 'w') {
      scanner.next();
      effects.push(written(scanner.restOfLine()));
      return;
    }
    if (flag === 'e') effects.push({ kind: 'runs', what: 'the e flag of the sed command s' });
    if (!/[gpiImMe0-9]/.test(flag) || flag === '') return;
    scanner.next();
  }
}

function written(file: string): SedEffect {
  return { kind: 'writes', file: file.trim() };
}

class NotUnderstood extends Error {}

class Scanner {
  private index = 0;
  constructor(private readonly text_: string) {}

  peek(): string {
    return this.text_[this.index] ?? '';
  }

  next(): string {
    const char = this.peek();
    if (char === '') throw new NotUnderstood('it ends in the middle of a command');
    this.index += 1;
    return char;
  }

  skipBlanks(): void {
    while (/[ \t]/.test(this.peek()) && this.peek() !== '') this.index += 1;
  }

  /** Skips blanks, `;` and newlines; false at the end. */
  skipSeparators(): boolean {
    while (/[\s;]/.test(this.peek()) && this.peek() !== '') this.index += 1;
    return this.index < this.text_.length;
  }

  /** A line number, `first~step`, `$`, `/re/`, `\cREc` (with I/M), `+N`, `~N`, or nothing. */
  address(): void {
    const char = this.peek();
    if (/[\d+~]/.test(char)) {
      this.index += 1;
      while (/[\d~]/.test(this.peek())) this.index += 1;
      return;
    }
    if (char === '$') {
      this.index += 1;
      return;
    }
    if (char !== '/' && char !== '\\') return;
    this.index += 1;
    this.delimited(char === '/' ? '/' : this.next());
    while (/[IM]/.test(this.peek()) && this.peek() !== '') this.index += 1;
  }

  /** The delimiter of `s` and `y`: any character but a backslash or a newline. */
  delimiter(): string {
    const char = this.next();
    if (char === '\\' || char === '\n') throw new NotUnderstood('an unusual delimiter');
    return char;
  }

  /** Text up to an unescaped delimiter, which is consumed. */
  delimited(delimiter: string): void {
    for (;;) {
      const char = this.next();
      if (char === '\\') this.next();
      else if (char === delimiter) return;
    }
  }

  /** Up to (not including) a character matching `end`, or the end of the script. */
  upTo(end: RegExp): string {
    const start = this.index;
    while (this.index < this.text_.length && !end.test(this.peek())) this.index += 1;
    return this.text_.slice(start, this.index);
  }

  restOfLine(): string {
    return this.upTo(/\n/);
  }

  /** The text of `a`, `i`, `c`: to the end of the line, lines ending in `\` continue it. */
  text(): void {
    for (;;) {
      this.restOfLine();
      if (this.index >= this.text_.length) return;
      const continued = this.text_[this.index - 1] === '\\';
      this.index += 1;
      if (!continued) return;
    }
  }

  /** After a command: blanks, then `;`, a newline, `}`, `#` or the end. */
  endOfCommand(): void {
    this.skipBlanks();
    const char = this.peek();
    if (char === '' || char === ';' || char === '\n' || char === '}' || char === '#') return;
    throw new NotUnderstood(`${JSON.stringify(char)} after a command`);
  }
}
