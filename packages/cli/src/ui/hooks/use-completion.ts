import { useEffect, useMemo, useState } from 'react';
import type { SlashCommand } from '../commands/types';
import {
  type CompletionQuery,
  completionQuery,
  replacedLength,
  type Suggestion,
  suggestionsFor,
} from '../input/completion';
import type { TextBuffer } from '../input/text-buffer';

export interface Completion {
  query: CompletionQuery | undefined;
  suggestions: Suggestion[];
  selected: number;
  /** Suggestions are showing (not dismissed, at least one). */
  open: boolean;
  select(index: number): void;
  dismiss(): void;
  /** Characters before the cursor the selected suggestion replaces. */
  replaceLength: number;
}

/**
 * `/command` and `@path` completion for the input: what to suggest for the text before the
 * cursor, which one is selected, and Esc to hide them until the text changes. The file listing
 * loads on the first `@`.
 */
export function useCompletion(
  buffer: TextBuffer,
  commands: readonly SlashCommand[],
  listFiles: () => Promise<string[]>,
): Completion {
  const query = useMemo(() => completionQuery(buffer), [buffer]);
  const [files, setFiles] = useState<string[] | undefined>(undefined);
  // The selection belongs to one query: typing further starts again at the top.
  const [selection, setSelection] = useState<{ key: string | undefined; index: number }>({
    key: undefined,
    index: 0,
  });
  const [dismissedFor, setDismissedFor] = useState<string | undefined>(undefined);
  const wantsFiles = query?.kind === 'file';

  useEffect(() => {
    if (!wantsFiles) return;
    let live = true;
    listFiles().then((entries) => {
      if (live) setFiles(entries);
    });
    return () => {
      live = false;
    };
  }, [wantsFiles, listFiles]);

  const suggestions = useMemo(
    () => (query ? suggestionsFor(query, commands, files) : []),
    [query, commands, files],
  );
  const queryKey = query
    ? `${query.kind}:${'command' in query ? query.command : ''}:${query.query}`
    : undefined;
  const selected = selection.key === queryKey ? selection.index : 0;

  const open = suggestions.length > 0 && dismissedFor !== buffer.text;
  return {
    query,
    suggestions,
    selected: Math.min(selected, Math.max(0, suggestions.length - 1)),
    open,
    select: (index) => setSelection({ key: queryKey, index }),
    dismiss: () => setDismissedFor(buffer.text),
    replaceLength: query ? replacedLength(query) : 0,
  };
}
