/**
 * `---`-delimited YAML frontmatter, as skills, agent files and Claude Code commands use it. The
 * YAML library loads only when a file with frontmatter is actually read, so a setup without any
 * of those files never pays for it. Hand-written files often break YAML (an unquoted `:` inside a
 * description); a line parser then recovers the simple `key: value` pairs instead of refusing.
 */
import { splitOutsideParens } from './split-list';

export interface Frontmatter {
  /** The keys, as YAML gave them (or strings from the line parser). */
  data: Record<string, unknown>;
  /** Everything after the closing `---`, trimmed. */
  body: string;
  /** Why strict YAML failed, when the line parser was used instead. */
  yamlError?: string;
  /** The frontmatter was a YAML list (several definitions in one file), not a map. */
  list?: unknown[];
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n?---(?:\r?\n|$)/;

/** The raw frontmatter text and the body; undefined when the file does not start with `---`. */
export function splitFrontmatter(text: string): { raw: string; body: string } | undefined {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const match = FRONTMATTER.exec(source);
  if (!match) return undefined;
  return { raw: match[1] ?? '', body: source.slice(match[0].length).trim() };
}

/** Parses a file's frontmatter; undefined when it has none. */
export async function parseFrontmatter(text: string): Promise<Frontmatter | undefined> {
  const split = splitFrontmatter(text);
  if (!split) return undefined;
  if (split.raw.trim() === '') return { data: {}, body: split.body };
  // Most frontmatter is plain `key: value` lines, which read the same either way: the YAML
  // library (the largest part of discovery's cost) loads only for anything richer.
  const simple = simpleFrontmatter(split.raw);
  if (simple) return { data: simple, body: split.body };
  const parse = await yamlParse();
  try {
    const value: unknown = parse(split.raw);
    if (Array.isArray(value)) return { data: {}, body: split.body, list: value };
    if (value !== null && typeof value === 'object') {
      return { data: value as Record<string, unknown>, body: split.body };
    }
    return { data: lineParse(split.raw), body: split.body, yamlError: 'the frontmatter is not a map' };
  } catch (error) {
    return { data: lineParse(split.raw), body: split.body, yamlError: (error as Error).message };
  }
}

/**
 * The frontmatter as a map when every line is `key: value` with a plain scalar YAML would read
 * as the same string (no quotes, block scalars, lists, maps, anchors, tags or comments, no
 * `: ` inside the value); undefined otherwise.
 */
function simpleFrontmatter(raw: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  // Read with string operations where a pattern would only be compiled for this (this runs at
  // start-up for every skill and agent file; each pattern costs its compilation once per run).
  for (const line of raw.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    // `key:` then at least one space or tab, then a value that starts with a non-space and
    // holds no line terminator.
    const colon = line.indexOf(':');
    const key = line.slice(0, colon);
    if (colon <= 0 || !KEY.test(key)) return undefined;
    let start = colon + 1;
    while (line[start] === ' ' || line[start] === '\t') start += 1;
    const text = line.slice(start);
    if (start === colon + 1 || text === '' || text[0]!.trim() === '' || hasLineTerminator(text))
      return undefined;
    const value = text.trimEnd();
    if (PLAIN_START.test(value) || /: |\s#/.test(value) || value.endsWith(':')) return undefined;
    // Words YAML reads as booleans, null or numbers are not plain strings.
    if (YAML_WORDS.has(value.toLowerCase()) || MAYBE_NUMBER.test(value)) return undefined;
    out[key] = value;
  }
  return out;
}

const KEY = /^[A-Za-z0-9_-]+$/;
/** `\r`, U+2028 or U+2029 inside a line: a plain scalar cannot hold them (the `\n`s are split). */
function hasLineTerminator(text: string): boolean {
  return text.includes('\r') || text.includes('\u2028') || text.includes('\u2029');
}
/** A first character that makes YAML read something else than a plain string. */
const PLAIN_START = /^["'>|[{&*!%@`#-]/;
const YAML_WORDS = new Set(['true', 'false', 'yes', 'no', 'on', 'off', 'null', '~']);
/** A digit, `.` or `+` first: YAML may read a number (`1e3`, `0x1F`, `.inf`), so YAML decides. */
const MAYBE_NUMBER = /^[+.0-9]/;

/**
 * `key: value` at line start; indented lines that follow continue the value (joined with spaces).
 * Surrounding quotes are removed. Good enough for names, descriptions and comma lists.
 */
export function lineParse(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  let current: string | undefined;
  for (const line of raw.split(/\r?\n/)) {
    const pair = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (pair) {
      current = pair[1]!;
      out[current] = unquote(pair[2]!.trim());
    } else if (current !== undefined && /^\s+\S/.test(line)) {
      const joined = `${out[current]} ${line.trim()}`.trim();
      out[current] = unquote(joined);
    } else if (line.trim() !== '') {
      current = undefined;
    }
  }
  return out;
}

function unquote(value: string): string {
  if (
    value.length >= 2 &&
    ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))
  ) {
    return value.slice(1, -1);
  }
  return value;
}

/** A frontmatter value as a string list: a YAML list, or a comma (or space) separated string. */
export function stringList(value: unknown, options: { separator?: RegExp } = {}): string[] | undefined {
  if (Array.isArray(value))
    return value
      .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
      .map((item) => item.trim());
  if (typeof value === 'string') {
    const items = options.separator ? value.split(options.separator) : splitOutsideParens(value);
    return items.map((item) => item.trim()).filter((item) => item !== '');
  }
  return undefined;
}

/**
 * `yaml` is CommonJS for Node: in the bundle its dynamic import yields only `default` (the
 * module's exports), under Node's own loader also the named exports. Read it either way.
 */
async function yamlParse(): Promise<typeof import('yaml').parse> {
  const loaded = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  return loaded.default?.parse ?? loaded.parse;
}
