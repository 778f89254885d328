import type { SlashCommand } from '../commands/types';
import { fuzzyFilter } from './fuzzy';
import type { TextBuffer } from './text-buffer';

export interface Suggestion {
  /** Text that replaces the query. */
  value: string;
  label: string;
  description?: string;
}

export type CompletionQuery =
  | { kind: 'command'; query: string }
  | { kind: 'subcommand'; command: string; query: string }
  | { kind: 'file'; query: string };

export const MAX_SUGGESTIONS = 8;

/** What the text before the cursor asks to complete: `/com`, `/theme da`, or `@src/ap`. */
export function completionQuery(buffer: TextBuffer): CompletionQuery | undefined {
  const before = buffer.text.slice(0, buffer.cursor);
  const command = /^\/(\S*)$/.exec(before);
  if (command) return { kind: 'command', query: command[1]! };
  const sub = /^\/(\S+) +(\S*)$/.exec(before);
  if (sub) return { kind: 'subcommand', command: sub[1]!, query: sub[2]! };
  const file = /(?:^|\s)@((?:\\ |[^\s])*)$/.exec(before);
  if (file) return { kind: 'file', query: file[1]! };
  return undefined;
}

/** Suggestions for a query; `files` is the workspace listing (undefined while it loads). */
export function suggestionsFor(
  query: CompletionQuery,
  commands: readonly SlashCommand[],
  files: readonly string[] | undefined,
): Suggestion[] {
  switch (query.kind) {
    case 'command': {
      const needle = query.query.toLowerCase();
      return commands
        .filter(
          (command) =>
            command.name.startsWith(needle) || command.aliases?.some((alias) => alias.startsWith(needle)),
        )
        .slice(0, MAX_SUGGESTIONS)
        .map((command) => ({
          value: `/${command.name}`,
          label: `/${command.name}`,
          description: command.description,
        }));
    }
    case 'subcommand': {
      const command = commands.find(
        (candidate) => candidate.name === query.command || candidate.aliases?.includes(query.command),
      );
      return (command?.subcommands ?? [])
        .filter((sub) => sub.name.startsWith(query.query) && sub.name !== query.query)
        .map((sub) => ({ value: sub.name, label: sub.name, description: sub.description }));
    }
    case 'file': {
      if (!files) return [];
      const needle = query.query.replace(/\\ /g, ' ');
      return fuzzyFilter(needle, files, MAX_SUGGESTIONS).map((path) => ({
        value: path.replace(/ /g, '\\ '),
        label: path,
      }));
    }
  }
}

/** How many characters before the cursor a suggestion replaces. */
export function replacedLength(query: CompletionQuery): number {
  return query.kind === 'command' ? query.query.length + 1 : query.query.length;
}
