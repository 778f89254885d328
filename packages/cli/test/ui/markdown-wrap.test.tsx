import { Box, Text } from 'ink';
import { render } from 'ink-testing-library';
import { Lexer, type Tokens } from 'marked';
import { isValidElement, type ReactNode } from 'react';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import wrapAnsi from 'wrap-ansi';
import { ThemeContext } from '../../src/ui/hooks/use-theme';
import { renderInline, renderWrappedInline } from '../../src/ui/markdown/inline';
import { Markdown } from '../../src/ui/markdown/markdown';
import { wrapPieces } from '../../src/ui/markdown/wrap';
import { resolveTheme } from '../../src/ui/theme';

/** What Ink itself does with a text node wider than its box. */
const inkWrap = (text: string, columns: number) => wrapAnsi(text, columns, { hard: true, trim: false });

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % below;
  };
}

function sampleLine(next: (below: number) => number, letters: string[]): string {
  const words: string[] = [];
  const count = 1 + next(30);
  for (let i = 0; i < count; i += 1) {
    // Empty words make double spaces; some words are longer than any row.
    const length = next(10) === 0 ? 20 + next(60) : next(12);
    words.push(Array.from({ length }, () => letters[next(letters.length)]).join(''));
  }
  return words.join(' ');
}

function splitAtRandom(text: string, next: (below: number) => number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const cut = 1 + next(Math.min(rest.length, 15));
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return pieces;
}

describe('wrapPieces', () => {
  it('breaks lines exactly where Ink would wrap them', () => {
    const next = random(7);
    const ascii = 'abcdefghijklmnopqrstuvwxyz.,;:!?()-`*'.split('');
    for (let sample = 0; sample < 400; sample += 1) {
      const lines = Array.from({ length: 1 + next(3) }, () => sampleLine(next, ascii));
      const text = lines.join('\n');
      const columns = 3 + next(60);
      const expected = inkWrap(text, columns);
      expect(wrapPieces([text], columns).join(''), `${JSON.stringify(text)} @${columns}`).toBe(expected);
      // Split across the leaves of inline formatting, the breaks land at the same places.
      expect(wrapPieces(splitAtRandom(text, next), columns).join('')).toBe(expected);
    }
  });

  it('measures wide characters like Ink does', () => {
    const next = random(11);
    const mixed = ['a', 'b', 'é', 'ü', '—', '’', '中', '文', '字', 'ア'];
    for (let sample = 0; sample < 200; sample += 1) {
      const text = sampleLine(next, mixed);
      const columns = 4 + next(40);
      const wrapped = wrapPieces([text], columns).join('');
      expect(wrapped.replaceAll('\n', '')).toBe(text);
      for (const line of wrapped.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(columns);
      expect(wrapped).toBe(inkWrap(text, columns));
    }
  });

  it('returns the pieces untouched when every line fits', () => {
    const pieces = ['short ', 'line\nanother'];
    expect(wrapPieces(pieces, 20)).toBe(pieces);
  });
});

describe('Markdown paragraphs', () => {
  const theme = resolveTheme('dark', {});
  const frameOf = (node: ReactNode) => {
    const { lastFrame, unmount } = render(
      <ThemeContext.Provider value={theme}>{node}</ThemeContext.Provider>,
    );
    const frame = lastFrame() ?? '';
    unmount();
    return frame;
  };

  /** The text Ink gets from nested <Text> elements. */
  const textOf = (node: ReactNode): string => {
    if (typeof node === 'string') return node;
    if (Array.isArray(node)) return node.map(textOf).join('');
    if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
    return '';
  };

  it('reach Ink already broken into lines that fit (so Ink does not wrap them again)', () => {
    const paragraph =
      'Some **bold words** and a `code span` in a sentence long enough to need several rows here.';
    const tokens = (new Lexer({ gfm: true }).lex(paragraph)[0] as Tokens.Paragraph).tokens;
    const text = textOf(renderWrappedInline(tokens, theme, 24));
    expect(text).toBe(inkWrap(textOf(renderInline(tokens, theme)), 24));
    for (const line of text.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(24);
  });

  it('look the same as when Ink wraps them', () => {
    const paragraph = [
      'The **scheduler** runs each `tool_call` in order, checks the [policy](https://example.com/policy)',
      'and asks for approval when needed; a_very_long_identifier_that_cannot_fit_on_one_row_of_the_box',
      'is cut, *emphasis spans rows* and ~~old text~~ stays struck through. Done.',
    ].join(' ');
    const tokens = (new Lexer({ gfm: true }).lex(paragraph)[0] as Tokens.Paragraph).tokens;
    for (const columns of [12, 25, 40, 77]) {
      const byInk = frameOf(
        <Box width={columns}>
          <Text>{renderInline(tokens, theme)}</Text>
        </Box>,
      );
      const prewrapped = frameOf(<Markdown text={paragraph} width={columns} />);
      expect(prewrapped).toBe(byInk);
      expect(Math.max(...prewrapped.split('\n').map((line) => stringWidth(line)))).toBeLessThanOrEqual(
        columns,
      );
    }
  });
});
