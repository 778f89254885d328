import { Box, Text } from 'ink';
import { Lexer, type Token, type Tokens } from 'marked';
import { memo, type ReactNode, useMemo } from 'react';
import { useTheme } from '../hooks/use-theme';
import { sanitizeForTerminal } from '../sanitize';
import type { Theme } from '../theme';
import { CodeBlock } from './code-block';
import { renderWrappedInline } from './inline';
import { Table } from './table';

interface Props {
  text: string;
  /** Columns available (tables are laid out for it). */
  width: number;
}

/** Model text rendered as Markdown: headings, lists, tables, quotes, code with highlighting. */
export const Markdown = memo(function Markdown({ text, width }: Props) {
  const theme = useTheme();
  const tokens = useMemo(() => new Lexer({ gfm: true }).lex(sanitizeForTerminal(text)), [text]);
  return (
    <Box flexDirection="column" width={width}>
      {renderBlocks(tokens, { theme, width })}
    </Box>
  );
});

interface BlockContext {
  theme: Theme;
  width: number;
}

function renderBlocks(tokens: Token[], context: BlockContext, keyPrefix = 'b'): ReactNode[] {
  const blocks: ReactNode[] = [];
  let previousType: string | undefined;
  for (const [index, token] of tokens.entries()) {
    const key = `${keyPrefix}${index}`;
    const node = renderBlock(token, context, key);
    if (node === null) continue;
    // Blocks are a blank line apart, except inside tight list items (text, then a nested list).
    const gap = previousType !== undefined && previousType !== 'text' && token.type !== 'text';
    previousType = token.type;
    blocks.push(
      <Box key={key} marginTop={gap ? 1 : 0} flexDirection="column">
        {node}
      </Box>,
    );
  }
  return blocks;
}

function renderBlock(token: Token, context: BlockContext, key: string): ReactNode {
  const { theme, width } = context;
  switch (token.type) {
    case 'space':
    case 'def':
    case 'checkbox':
      return null;
    case 'heading': {
      const heading = token as Tokens.Heading;
      return (
        <Text bold color={heading.depth <= 2 ? theme.accent : undefined} underline={heading.depth === 1}>
          {renderWrappedInline(heading.tokens, theme, width, key)}
        </Text>
      );
    }
    case 'paragraph':
      return <Text>{renderWrappedInline((token as Tokens.Paragraph).tokens, theme, width, key)}</Text>;
    case 'text': {
      const text = token as Tokens.Text;
      const inline = text.tokens ?? [{ type: 'text', raw: text.raw, text: text.text }];
      return <Text>{renderWrappedInline(inline, theme, width, key)}</Text>;
    }
    case 'code': {
      const code = token as Tokens.Code;
      return <CodeBlock code={code.text} language={code.lang?.split(/\s/)[0]} />;
    }
    case 'list':
      return renderList(token as Tokens.List, context, key);
    case 'blockquote':
      return (
        <Box
          borderStyle="bold"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          borderColor={theme.muted}
          paddingLeft={1}
          flexDirection="column"
        >
          {renderBlocks((token as Tokens.Blockquote).tokens, { theme, width: Math.max(10, width - 2) }, key)}
        </Box>
      );
    case 'table':
      return <Table table={token as Tokens.Table} width={width} />;
    case 'hr':
      return <Text color={theme.border}>{'─'.repeat(Math.max(3, Math.min(width, 40)))}</Text>;
    case 'html':
      return <Text>{(token as Tokens.HTML).text.replace(/\n$/, '')}</Text>;
    default:
      return <Text>{token.raw.replace(/\n$/, '')}</Text>;
  }
}

function renderList(list: Tokens.List, context: BlockContext, key: string): ReactNode {
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((item, index) => {
    if (item.task) return item.checked ? '☑' : '☐';
    return list.ordered ? `${start + index}.` : '•';
  });
  const markerWidth = Math.max(...markers.map((marker) => marker.length)) + 1;
  const inner = { ...context, width: Math.max(10, context.width - markerWidth) };
  return (
    <Box flexDirection="column">
      {list.items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity but their position
        <Box key={index} flexDirection="row">
          <Box width={markerWidth} flexShrink={0}>
            <Text color={context.theme.accent}>{markers[index]}</Text>
          </Box>
          <Box flexDirection="column" width={inner.width}>
            {renderBlocks(item.tokens, inner, `${key}.${index}.`)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
