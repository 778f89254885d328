import { Text } from 'ink';
import type { Token, Tokens } from 'marked';
import type { ReactNode } from 'react';
import type { Theme } from '../theme';
import { wrapPieces } from './wrap';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Every piece of text shown passes through it, in order. */
type Leaf = (text: string) => string;
const asIs: Leaf = (text) => text;

/**
 * Inline Markdown as nested Ink text, with line breaks put in where a box `columns` wide wraps
 * it (see wrap.ts: Ink then has no wrapping of its own to do).
 */
export function renderWrappedInline(
  tokens: Token[] | undefined,
  theme: Theme,
  columns: number,
  keyPrefix = 'i',
): ReactNode[] {
  const pieces: string[] = [];
  const elements = renderInline(tokens, theme, keyPrefix, (text) => {
    pieces.push(text);
    return text;
  });
  const wrapped = wrapPieces(pieces, columns);
  if (wrapped === pieces) return elements;
  let next = 0;
  return renderInline(tokens, theme, keyPrefix, () => wrapped[next++] ?? '');
}

/** Inline Markdown (emphasis, code, links…) as nested Ink text. */
export function renderInline(
  tokens: Token[] | undefined,
  theme: Theme,
  keyPrefix = 'i',
  leaf: Leaf = asIs,
): ReactNode[] {
  return (tokens ?? []).map((token, index) => {
    const key = `${keyPrefix}${index}`;
    switch (token.type) {
      case 'strong':
        return (
          <Text key={key} bold>
            {renderInline((token as Tokens.Strong).tokens, theme, key, leaf)}
          </Text>
        );
      case 'em':
        return (
          <Text key={key} italic>
            {renderInline((token as Tokens.Em).tokens, theme, key, leaf)}
          </Text>
        );
      case 'del':
        return (
          <Text key={key} strikethrough>
            {renderInline((token as Tokens.Del).tokens, theme, key, leaf)}
          </Text>
        );
      case 'codespan': {
        const code = decodeEntities((token as Tokens.Codespan).text);
        return (
          <Text key={key} color={theme.code}>
            {leaf(theme.code ? code : `\`${code}\``)}
          </Text>
        );
      }
      case 'link': {
        const link = token as Tokens.Link;
        const label = plainText(link.tokens);
        return (
          <Text key={key}>
            <Text color={theme.link} underline>
              {renderInline(link.tokens, theme, key, leaf)}
            </Text>
            {label !== link.href && !link.href.startsWith('mailto:') ? (
              <Text color={theme.muted}>{leaf(` (${link.href})`)}</Text>
            ) : null}
          </Text>
        );
      }
      case 'image': {
        const image = token as Tokens.Image;
        return (
          <Text key={key} color={theme.muted}>
            {leaf(`[image: ${image.text || image.href}]`)}
          </Text>
        );
      }
      case 'br':
        return <Text key={key}>{leaf('\n')}</Text>;
      case 'text': {
        const text = token as Tokens.Text;
        if (text.tokens && text.tokens.length > 0)
          return <Text key={key}>{renderInline(text.tokens, theme, key, leaf)}</Text>;
        return <Text key={key}>{leaf(decodeEntities(text.text))}</Text>;
      }
      case 'escape':
        return <Text key={key}>{leaf((token as Tokens.Escape).text)}</Text>;
      case 'checkbox':
        // The list marker already shows ☐/☑.
        return null;
      default:
        return (
          <Text key={key}>{leaf(decodeEntities('text' in token ? String(token.text) : token.raw))}</Text>
        );
    }
  });
}

/** The text of inline tokens without formatting (table cells, link labels). */
export function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0)
        return plainText(token.tokens);
      if (token.type === 'br') return ' ';
      if (token.type === 'checkbox') return '';
      return decodeEntities('text' in token ? String(token.text) : token.raw);
    })
    .join('');
}
