import type { ContextBreakdown } from '@kodo/core/engine';
import { compactNumber } from '../format';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

/** The `/context` panel: one row per source, tokens and share of the window, then what is free. */
export function renderContextBreakdown(breakdown: ContextBreakdown): string {
  const share = (tokens: number) => `${((tokens / breakdown.window) * 100).toFixed(1)}%`;
  const rows = breakdown.sources.map(
    (source) => `| ${source.label} | ${compactNumber(source.tokens)} | ${share(source.tokens)} |`,
  );
  const free = Math.max(0, breakdown.window - breakdown.total);
  const measured =
    breakdown.measured !== undefined
      ? ` The provider counted ${compactNumber(breakdown.measured)} at the last request.`
      : '';
  return [
    `**${breakdown.model}**: about ${compactNumber(breakdown.total)} of ${compactNumber(breakdown.window)} tokens (${share(breakdown.total)}) would go with the next request (estimated).${measured}`,
    '',
    '| Source | Tokens | Share of window |',
    '| --- | ---: | ---: |',
    ...rows,
    `| free | ${compactNumber(free)} | ${share(free)} |`,
  ].join('\n');
}

export const contextCommand: SlashCommand = terminalBuiltin('context', {
  whileBusy: true,
  run({ addItem, session }) {
    addItem({ kind: 'panel', title: 'Context', body: renderContextBreakdown(session.contextBreakdown()) });
  },
});
