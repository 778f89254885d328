/**
 * Where a hunk's lines are in a file. A hunk names its place by content, whole lines of it, so
 * the search compares line sequences rather than substrings (`replace`'s strategies look for
 * text anywhere, even mid-line, and re-indent what they insert, which a patch's `+` lines must
 * not be). Lines are compared strictly first, then more and more forgivingly, the slips models
 * make when they copy lines: trailing whitespace, indentation, then typographic punctuation
 * (curly quotes, dashes, odd spaces) written as ASCII or the other way round. The first level at
 * which the lines are found anywhere decides, so an exact match always wins over a forgiving one.
 */

export interface MatchLevel {
  /** How the match forgave, for the model ("" for an exact match). */
  readonly forgiving: string;
  readonly normalise: (line: string) => string;
}

/** Typographic characters and the ASCII a model writes for them. */
const PUNCTUATION: Record<string, string> = {
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2026': '...',
  '\u00a0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u202f': ' ',
  '\u205f': ' ',
  '\u3000': ' ',
};
const PUNCTUATION_PATTERN = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');

export const MATCH_LEVELS: readonly MatchLevel[] = [
  { forgiving: '', normalise: (line) => line },
  { forgiving: 'ignoring trailing whitespace', normalise: (line) => line.trimEnd() },
  { forgiving: 'ignoring indentation', normalise: (line) => line.trim() },
  {
    forgiving: 'ignoring indentation and typographic punctuation',
    normalise: (line) => line.replace(PUNCTUATION_PATTERN, (ch) => PUNCTUATION[ch]!).trim(),
  },
];

export interface Found {
  level: MatchLevel;
  /** Every index where the lines start, in order. */
  starts: number[];
}

/** A file's lines, with each level's normalised copy made on first use. */
export class FileLines {
  private readonly normalised = new Map<MatchLevel, string[]>();

  constructor(readonly lines: readonly string[]) {}

  /**
   * Where `wanted` occurs at or after line `from` (0-based), at the strictest level that finds it
   * at all; with `atEnd`, only an occurrence that ends the file counts. Undefined when no level
   * finds it.
   */
  find(wanted: readonly string[], options: { from: number; atEnd?: boolean }): Found | undefined {
    const last = this.lines.length - wanted.length;
    const first = options.atEnd ? Math.max(options.from, last) : options.from;
    if (wanted.length === 0 || last < first) return undefined;
    for (const level of MATCH_LEVELS) {
      const lines = this.at(level);
      const target = wanted.map(level.normalise);
      const starts: number[] = [];
      for (let start = first; start <= last; start++) {
        if (target.every((line, offset) => lines[start + offset] === line)) starts.push(start);
      }
      if (starts.length > 0) return { level, starts };
    }
    return undefined;
  }

  private at(level: MatchLevel): readonly string[] {
    let lines = this.normalised.get(level);
    if (!lines) {
      lines = this.lines.map(level.normalise);
      this.normalised.set(level, lines);
    }
    return lines;
  }
}
