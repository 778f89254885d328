// The edits a model means to make, and the mistakes it makes when writing them down: the intended
// change is made in the file's own frame, then old_string and new_string are distorted the way
// models distort them (indentation, tabs, escaping, typos).
import { leadingWhitespace } from '../../packages/core/src/tools/edit/lines';
import type { Rng } from './rng';
import type { Language } from './sources';

const WORDS = ['cache', 'retry', 'audit', 'quota', 'timeout', 'metrics', 'tracing', 'locale'];

/** The block as the model means to change it, in the file's indentation. Never equal to the block. */
export function intendedChange(
  rng: Rng,
  language: Language,
  block: readonly string[],
  options: { nested: boolean },
): string[] {
  const lines = [...block];
  const word = rng.pick(WORDS);
  const nonBlank = lines.map((line, i) => (line.trim() === '' ? -1 : i)).filter((i) => i >= 0);
  const at = rng.pick(nonBlank);
  const indent = leadingWhitespace(lines[at]!);
  const opensBlock = /[{:]\s*$/.test(lines[at]!) && !lines[at]!.trim().startsWith(language.comment);
  const inner = opensBlock ? indent + language.unit : indent;
  if (options.nested) {
    lines.splice(at + 1, 0, ...nestedBlock(language, inner, word));
    return lines;
  }
  const kind = rng.pick(['modify', 'modify', 'insert', 'delete'] as const);
  if (kind === 'delete' && lines.length >= 3 && at > 0) {
    lines.splice(at, 1);
    return lines;
  }
  if (kind === 'modify') {
    const modified = modifyLine(rng, lines[at]!, language, word);
    if (modified !== lines[at]) {
      lines[at] = modified;
      return lines;
    }
  }
  lines.splice(at + 1, 0, `${inner}${statement(language, word)}`);
  return lines;
}

function statement(language: Language, word: string): string {
  switch (language.name) {
    case 'py':
      return `log.debug("checking ${word}")`;
    case 'go':
      return `log.Printf("checking ${word}")`;
    case 'java':
      return `log.debug("checking ${word}");`;
    default:
      return `logger.debug('checking ${word}');`;
  }
}

function nestedBlock(language: Language, indent: string, word: string): string[] {
  const deeper = indent + language.unit;
  switch (language.name) {
    case 'py':
      return [`${indent}if settings.${word}:`, `${deeper}log.debug("${word} enabled")`];
    case 'go':
      return [`${indent}if cfg.${word} {`, `${deeper}log.Printf("${word} enabled")`, `${indent}}`];
    case 'java':
      return [`${indent}if (config.${word}()) {`, `${deeper}log.debug("${word} enabled");`, `${indent}}`];
    default:
      return [`${indent}if (options.${word}) {`, `${deeper}logger.debug('${word} enabled');`, `${indent}}`];
  }
}

function modifyLine(rng: Rng, line: string, language: Language, word: string): string {
  const choice = rng.int(0, 2);
  if (choice === 0) {
    const literal = /(["'])([^"'\\]{2,})\1/.exec(line);
    if (literal) return line.replace(literal[0], `${literal[1]}${literal[2]} (${word})${literal[1]}`);
  }
  if (choice === 1) {
    const number = /\b\d+\b/.exec(line);
    if (number) return line.replace(number[0], String(Number(number[0]) + 1));
  }
  const identifiers = [...line.matchAll(/\b[a-z][A-Za-z0-9]{2,}\b/g)].filter(
    (m) =>
      !['return', 'const', 'await', 'self', 'func', 'public', 'this', 'item', 'nil', 'null'].includes(m[0]),
  );
  if (identifiers.length > 0) {
    const target = rng.pick(identifiers);
    const renamed = `${target[0]}${word[0]!.toUpperCase()}${word.slice(1)}`;
    return line.slice(0, target.index) + renamed + line.slice(target.index! + target[0].length);
  }
  return `${line} ${language.comment} ${word}`;
}

/** Every line's indentation changed by `transform` (blank lines kept). */
export function mapIndent(lines: readonly string[], transform: (indent: string) => string): string[] {
  return lines.map((line) => {
    if (line.trim() === '') return line;
    const indent = leadingWhitespace(line);
    return transform(indent) + line.slice(indent.length);
  });
}

/** A uniform indentation error: flattened, one unit too deep, or one unit too shallow. */
export function shiftIndentation(
  rng: Rng,
  language: Language,
  oldLines: readonly string[],
): ((indent: string) => string) | undefined {
  const indents = oldLines.filter((line) => line.trim() !== '').map(leadingWhitespace);
  const min = indents.reduce((a, b) => (b.length < a.length ? b : a));
  const options: Array<(indent: string) => string> = [];
  if (min.length > 0) options.push((indent) => indent.slice(min.length));
  const extra = language.unit === '\t' ? '\t' : rng.pick(['  ', '    ']);
  options.push((indent) => extra + indent);
  if (min.startsWith(language.unit) && min.length > 0)
    options.push((indent) => indent.slice(language.unit.length));
  return options.length > 0 ? rng.pick(options) : undefined;
}

/** Spaces for tabs (tab files) or tabs for the language's space unit (space files). */
export function swapTabsAndSpaces(rng: Rng, language: Language): (indent: string) => string {
  if (language.unit === '\t') {
    const width = rng.pick([2, 4, 4, 8]);
    return (indent) => indent.replace(/\t/g, ' '.repeat(width));
  }
  const unit = language.unit;
  return (indent) => {
    let rest = indent;
    let out = '';
    while (rest.startsWith(unit)) {
      out += '\t';
      rest = rest.slice(unit.length);
    }
    return out + rest;
  };
}

/** One escaping level too many, as JSON would write the string (the whole call escaped twice). */
export function overEscapeJson(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Line breaks written as `\n` and nothing else escaped. */
export function overEscapeNewlines(text: string): string {
  return text.replace(/\n/g, '\\n');
}

/** Quotes written as `\"` and `\'`, line breaks left real. */
export function overEscapeQuotes(text: string): string {
  return text.replace(/(["'])/g, '\\$1');
}

/** One slip of the keyboard on a non-whitespace character: substitution, deletion, doubling or swap. */
export function typo(rng: Rng, text: string): string {
  const positions = [...text].map((ch, i) => (/\S/.test(ch) ? i : -1)).filter((i) => i >= 0);
  const at = rng.pick(positions);
  const ch = text[at]!;
  switch (rng.int(0, 3)) {
    case 0: {
      const letters = 'abcdefghijklmnopqrstuvwxyz';
      let other = rng.pick([...letters]);
      if (other === ch.toLowerCase()) other = other === 'a' ? 'e' : 'a';
      return text.slice(0, at) + other + text.slice(at + 1);
    }
    case 1:
      return text.slice(0, at) + text.slice(at + 1);
    case 2:
      return text.slice(0, at) + ch + text.slice(at);
    default: {
      const next = text[at + 1];
      if (next === undefined || /\s/.test(next) || next === ch) return text.slice(0, at) + text.slice(at + 1);
      return text.slice(0, at) + next + ch + text.slice(at + 2);
    }
  }
}

/** The line with the spacing around one kind of bracket or operator changed, or undefined. */
export function respace(rng: Rng, line: string): string | undefined {
  const indent = leadingWhitespace(line);
  const body = line.slice(indent.length);
  const edits: Array<(text: string) => string> = [
    (text) => text.replace(/\(\s*/g, '( ').replace(/\s*\)/g, ' )'),
    (text) => text.replace(/\{ /g, '{').replace(/ \}/g, '}'),
    (text) => text.replace(/ = /g, '='),
    (text) => text.replace(/: /g, ':'),
    (text) => text.replace(/\[/g, '[ ').replace(/\]/g, ' ]'),
  ];
  for (const edit of rng.shuffle(edits)) {
    // Inside the line only: a change at its start would be an indentation mistake instead.
    const changed = edit(body).trimStart();
    if (changed !== body) return indent + changed;
  }
  return undefined;
}
