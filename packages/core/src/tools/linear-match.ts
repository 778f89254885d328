import { RE2JS } from 're2js';

/**
 * Matching for patterns that come from the model. JavaScript's RegExp backtracks: a pattern like
 * `(a+)+$`, or a glob that compiles to `.*a.*a.*a…b`, can take exponential time on one line or
 * file name, and while it runs the event loop is frozen, so no timeout, abort or Ctrl+C can act.
 * RE2 (here its pure-JavaScript port) matches in time linear in the input, whatever the pattern;
 * the price is that look-around and back-references are refused, with a clear error.
 */

export interface LinearMatcher {
  /** Whether the pattern matches somewhere in `text` (regex) or matches all of it (glob). */
  test(text: string): boolean;
}

/** A regular expression's matcher, which can also say where it first matches. */
export interface RegexMatcher extends LinearMatcher {
  /** The UTF-16 index where the first match in `text` starts, or undefined without one. */
  firstMatchStart(text: string): number | undefined;
}

/** Model patterns longer than this are refused: the compiled program grows with the pattern. */
export const MAX_PATTERN_LENGTH = 4096;

export class PatternError extends Error {
  override readonly name = 'PatternError';
}

/** A regular expression (JavaScript-like syntax, as far as RE2 supports it) that finds matches. */
export function compileRegex(source: string, options: { caseSensitive: boolean }): RegexMatcher {
  if (source.length > MAX_PATTERN_LENGTH) {
    throw new PatternError(`The pattern is longer than ${MAX_PATTERN_LENGTH} characters.`);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, options.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw new PatternError(
      `${(error as Error).message}. Patterns run on a linear-time engine (RE2): look-around and back-references are not supported.`,
    );
  }
  return {
    test: (text) => re.matcher(text).find(),
    firstMatchStart(text) {
      const matcher = re.matcher(text);
      return matcher.find() ? matcher.start() : undefined;
    },
  };
}

/**
 * A glob compiled to a linear-time matcher of whole paths (`/`-separated, relative). `*` and `?`
 * stay within a segment, `**` as a whole segment spans any number of them, `[…]`/`[!…]` are
 * classes, `{a,b}` alternatives (nested too), and the extglobs `@(…)`, `?(…)`, `*(…)`, `+(…)`;
 * `!(…)` needs look-ahead and is refused. With `segment: true` the glob matches one name, and
 * `**` is the same as `*`.
 */
export function compileGlob(
  pattern: string,
  options: { caseSensitive: boolean; segment?: boolean },
): LinearMatcher {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new PatternError(`The pattern is longer than ${MAX_PATTERN_LENGTH} characters.`);
  }
  const source = `^${globSource(pattern, options.segment === true)}$`;
  const flags = RE2JS.DOTALL | (options.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, flags);
  } catch (error) {
    throw new PatternError(`Invalid glob pattern ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
  return { test: (text) => re.matches(text) };
}

const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/g;
function escapeLiteral(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

/** The RE2 source of a glob. */
export function globSource(pattern: string, segment: boolean): string {
  const any = segment ? '.' : '[^/]';
  return translate(pattern, { any, segment });
}

function translate(pattern: string, mode: { any: string; segment: boolean }): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    const next = pattern[i + 1];
    if ('@?*+!'.includes(ch) && next === '(') {
      const close = matchingClose(pattern, i + 1, '(', ')');
      if (close !== -1) {
        if (ch === '!')
          throw new PatternError('Negated extglobs `!(…)` are not supported; list what to match.');
        const body = splitTop(pattern.slice(i + 2, close), '|')
          .map((part) => translate(part, mode))
          .join('|');
        out += `(?:${body})${ch === '@' ? '' : ch}`;
        i = close;
        continue;
      }
    }
    if (ch === '*') {
      let end = i;
      while (pattern[end + 1] === '*') end++;
      const double = end > i;
      const atStart = i === 0 || pattern[i - 1] === '/';
      const atEnd = end === pattern.length - 1 || pattern[end + 1] === '/';
      i = end;
      if (!double || mode.segment) {
        out += `${mode.any}*`;
      } else if (atStart && atEnd && pattern[i + 1] === '/') {
        out += '(?:[^/]*/)*'; // `**/`: any number of whole segments, none included.
        i++;
      } else if (atStart && atEnd) {
        out += '.*'; // A trailing `**`: everything below.
      } else {
        out += `${mode.any}*`; // `a**b` is just `a*b`.
      }
      continue;
    }
    if (ch === '?') {
      out += mode.any;
      continue;
    }
    if (ch === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close !== -1) {
        const body = pattern.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        const members = (negated ? body.slice(1) : body).replace(/[\\\]]/g, '\\$&');
        out += negated ? `[^/${members}]` : `[${members}]`;
        i = close;
        continue;
      }
    }
    if (ch === '{') {
      const close = matchingClose(pattern, i, '{', '}');
      if (close !== -1) {
        const parts = splitTop(pattern.slice(i + 1, close), ',');
        if (parts.length > 1) {
          out += `(?:${parts.map((part) => translate(part, mode)).join('|')})`;
          i = close;
          continue;
        }
      }
    }
    if (ch === '\\' && next !== undefined) {
      out += escapeLiteral(next);
      i++;
      continue;
    }
    out += escapeLiteral(ch);
  }
  return out;
}

/** Index of the bracket closing the one at `open`, counting nesting; -1 when unbalanced. */
function matchingClose(pattern: string, open: number, left: string, right: string): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (ch === left) depth++;
    else if (ch === right && --depth === 0) return i;
  }
  return -1;
}

/** Splits on `separator` outside any `{}`, `()` or `[]`. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') depth--;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
