import type { ParseError } from 'jsonc-parser';
// The parser alone, not the package's entry: that also evaluates the formatter, which builds
// ~190 KB of indentation strings when loaded (a scavenge before every first request; kodo
// formats only when it edits a settings file).
import { parse } from 'jsonc-parser/lib/esm/impl/parser.js';
import { locateJsonError } from './json-location';

/**
 * JSON with comments and trailing commas (settings, trusted folders, trust fingerprints), read
 * by a real parser. Comments and commas were once stripped by hand before `JSON.parse`, and the
 * comma step did not know where strings end: `"a{1,}"` was read as `"a{1}"`. A parser never
 * changes a string's text.
 */

/** A JSONC text that does not parse; the message is `line L, column C: what is wrong`. */
export class JsoncSyntaxError extends Error {
  override readonly name = 'JsoncSyntaxError';
}

/**
 * The value of a JSONC text (a leading byte-order mark is allowed); throws `JsoncSyntaxError`.
 * A key named `__proto__` is left out, whichever parser reads the text.
 */
export function parseJsonc(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Most of these files are plain JSON, which V8's own parser reads at once; the JSONC parser's
  // code would first have to be compiled (~2 ms before the first request on Node 20, which has
  // no compile cache). Plain JSON is JSONC, so both give the same value; whatever JSON.parse
  // rejects (comments, trailing commas, a mistake) goes to the JSONC parser, which reads it or
  // says where it is wrong.
  try {
    return withoutProtoKeys(JSON.parse(body));
  } catch {
    // Not plain JSON.
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(body, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length === 0) return withoutProtoKeys(value);
  throw new JsoncSyntaxError(describe(body, errors[0]!));
}

/**
 * A key named `"__proto__"`, left out: JSON.parse makes it an own key, and the JSONC parser
 * assigns it, which sets the object's prototype (its keys then readable through it) instead.
 */
function withoutProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) withoutProtoKeys(item);
  } else if (value !== null && typeof value === 'object') {
    Reflect.deleteProperty(value, '__proto__');
    if (Object.getPrototypeOf(value) !== Object.prototype) Object.setPrototypeOf(value, Object.prototype);
    for (const child of Object.values(value)) withoutProtoKeys(child);
  }
  return value;
}

/** The locator's wording (it says what was expected), or the parser's own error where they differ. */
function describe(text: string, error: ParseError): string {
  const problem = locateJsonError(text, { jsonc: true });
  if (problem) return `line ${problem.line}, column ${problem.column}: ${problem.message}`;
  const before = text.slice(0, error.offset);
  const line = before.split('\n').length;
  const column = error.offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column}: ${PARSE_ERROR_NAMES[error.error] ?? 'unknown error'}`;
}

/** jsonc-parser's `ParseErrorCode` names by code (its `printParseErrorCode`, without the entry). */
const PARSE_ERROR_NAMES: Readonly<Record<number, string>> = {
  1: 'InvalidSymbol',
  2: 'InvalidNumberFormat',
  3: 'PropertyNameExpected',
  4: 'ValueExpected',
  5: 'ColonExpected',
  6: 'CommaExpected',
  7: 'CloseBraceExpected',
  8: 'CloseBracketExpected',
  9: 'EndOfFileExpected',
  10: 'InvalidCommentToken',
  11: 'UnexpectedEndOfComment',
  12: 'UnexpectedEndOfString',
  13: 'UnexpectedEndOfNumber',
  14: 'InvalidUnicode',
  15: 'InvalidEscapeCharacter',
  16: 'InvalidCharacter',
};
