import { Box } from 'ink';
import { liveTail } from '../markdown/split';
import type { LiveBlock } from '../types';
import { HistoryItemView } from './history-item-view';

interface Props {
  blocks: LiveBlock[];
  width: number;
  /** Rows the live region may take; older lines of a long block are left out until it is final. */
  maxRows: number;
  thoughtsExpanded: boolean;
}

/**
 * The part of the turn that still changes. It is kept within `maxRows` so that a frame never
 * taller than the screen forces a full redraw: tool boxes get a few lines each, the streaming
 * answer the rest (its tail).
 */
export function LiveTurn({ blocks, width, maxRows, thoughtsExpanded }: Props) {
  const tools = blocks.filter((block) => block.kind === 'tool').length;
  const toolLines = Math.max(2, Math.min(8, Math.floor(maxRows / Math.max(1, tools + 1)) - 3));
  const textRows = Math.max(3, maxRows - tools * (toolLines + 3));
  return (
    <Box flexDirection="column">
      {blocks.map((block, index) => {
        const key = `${index}:${block.kind}`;
        switch (block.kind) {
          case 'model':
            return (
              <HistoryItemView
                key={key}
                item={{
                  kind: 'model',
                  text: liveTail(block.text, textRows, Math.max(10, width - 2)),
                  continuation: block.continuation,
                }}
                width={width}
                thoughtsExpanded={thoughtsExpanded}
                maxToolLines={toolLines}
              />
            );
          case 'thought':
            return (
              <HistoryItemView
                key={key}
                item={{
                  kind: 'thought',
                  text: thoughtsExpanded ? liveTail(block.text, textRows, width - 2) : block.text,
                }}
                width={width}
                thoughtsExpanded={thoughtsExpanded}
                maxToolLines={toolLines}
              />
            );
          case 'tool':
            return (
              <HistoryItemView
                key={block.call.callId}
                item={{ kind: 'tool', call: block.call }}
                width={width}
                thoughtsExpanded={thoughtsExpanded}
                maxToolLines={toolLines}
              />
            );
          case 'info':
            return (
              <HistoryItemView
                key={key}
                item={{ kind: 'info', text: block.text, tone: block.tone }}
                width={width}
                thoughtsExpanded={thoughtsExpanded}
                maxToolLines={toolLines}
              />
            );
        }
        return null;
      })}
    </Box>
  );
}
