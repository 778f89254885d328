import { Text } from 'ink';
import type { Token, Tokens } from 'marked';
import type { ReactNode } from 'react';
import type { Theme } from '../theme';

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

/** Inline Markdown (emphasis, code, links…) as nested Ink text. */
export function renderInline(tokens: Token[] | undefined, theme: Theme, keyPrefix = 'i'): ReactNode[] {
  return (tokens ?? []).map((token, index) => {
    const key = `${keyPrefix}${index}`;
    switch (token.type) {
      case 'strong':
        return (
          <Text key={key} bold>
            {renderInline((token as Tokens.Strong).tokens, theme, key)}
          </Text>
        );
      case 'em':
        return (
          <Text key={key} italic>
            {renderInline((token as Tokens.Em).tokens, theme, key)}
          </Text>
        );
      case 'del':
        return (
          <Text key={key} strikethrough>
            {renderInline((token as Tokens.Del).tokens, theme, key)}
          </Text>
        );
      case 'codespan': {
        const code = decodeEntities((token as Tokens.Codespan).text);
        return (
          <Text key={key} color={theme.code}>
            {theme.code ? code : `\`${code}\``}
          </Text>
        );
      }
      case 'link': {
        const link = token as Tokens.Link;
        const label = plainText(link.tokens);
        return (
          <Text key={key}>
            <Text color={theme.link} underline>
              {renderInline(link.tokens, theme, key)}
            </Text>
            {label !== link.href && !link.href.startsWith('mailto:') ? (
              <Text color={theme.muted}> ({link.href})</Text>
            ) : null}
          </Text>
        );
      }
      case 'image': {
        const image = token as Tokens.Image;
        return (
          <Text key={key} color={theme.muted}>
            [image: {image.text || image.href}]
          </Text>
        );
      }
      case 'br':
        return <Text key={key}>{'\n'}</Text>;
      case 'text': {
        const text = token as Tokens.Text;
        if (text.tokens && text.tokens.length > 0)
          return <Text key={key}>{renderInline(text.tokens, theme, key)}</Text>;
        return <Text key={key}>{decodeEntities(text.text)}</Text>;
      }
      case 'escape':
        return <Text key={key}>{(token as Tokens.Escape).text}</Text>;
      case 'checkbox':
        // The list marker already shows ☐/☑.
        return null;
      default:
        return <Text key={key}>{decodeEntities('text' in token ? String(token.text) : token.raw)}</Text>;
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
