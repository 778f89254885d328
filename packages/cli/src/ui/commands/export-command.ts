import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type ExportFormat, exportJson, exportMarkdown } from '../session-export';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

/** `/export [md|json] [path]`: the format from the word, else the path's extension, else Markdown. */
export function parseExportArgs(args: string): { format: ExportFormat; path?: string } {
  const words = args.split(/\s+/).filter(Boolean);
  let format: ExportFormat | undefined;
  if (words[0] === 'md' || words[0] === 'markdown' || words[0] === 'json') {
    format = words.shift() === 'json' ? 'json' : 'md';
  }
  const path = words.join(' ') || undefined;
  format ??= path?.toLowerCase().endsWith('.json') ? 'json' : 'md';
  return path ? { format, path } : { format };
}

export const exportCommand: SlashCommand = terminalBuiltin('export', {
  subcommands: [
    { name: 'md', description: 'Markdown (the default)' },
    { name: 'json', description: 'JSON, the history as kodo keeps it' },
  ],
  whileBusy: true,
  async run({ args, session, cwd, addItem }) {
    const { format, path } = parseExportArgs(args);
    const target = resolve(cwd, path ?? `kodo-session-${session.id.slice(0, 8)}.${format}`);
    const data = {
      sessionId: session.id,
      model: session.model,
      exportedAt: new Date().toISOString(),
      history: session.history(),
    };
    try {
      // `wx`: an export never replaces a file that is already there.
      await writeFile(target, format === 'json' ? exportJson(data) : exportMarkdown(data), { flag: 'wx' });
    } catch (error) {
      const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
      addItem({
        kind: 'info',
        tone: 'error',
        text: exists
          ? `${target} already exists: give another path, e.g. /export ${format} other.${format}`
          : `Could not export: ${(error as Error).message}`,
      });
      return;
    }
    addItem({
      kind: 'info',
      tone: 'success',
      text: `Exported ${data.history.length} messages as ${format === 'json' ? 'JSON' : 'Markdown'} to ${target}.`,
    });
  },
});
