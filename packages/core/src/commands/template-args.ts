import {
  type ShellPlaceholder,
  substituteShellPlaceholders,
  type UnquotableContext,
} from '../utils/shell-placeholders';

/**
 * The arguments typed after a custom command, put into its template in one pass: text that
 * came from an argument is never scanned again, so an argument carrying `!{…}`, `` !`…` ``,
 * `@file`, `{{args}}` or `$1` stays text. In a shell step each argument is one literal word,
 * quoted for where the placeholder stands; where it cannot be quoted reliably the command is
 * refused (the `onUnquotable` callback throws).
 */
export interface TemplateArgs {
  /** The placeholder starting at `index`, if any, and what it stands for. */
  find(text: string, index: number): ShellPlaceholder | undefined;
}

/** Gemini CLI's `{{args}}`: the text typed after the command. */
export function tomlArgs(args: string): TemplateArgs {
  return {
    find: (text, index) =>
      text.startsWith('{{args}}', index) ? { end: index + '{{args}}'.length, value: args } : undefined,
  };
}

/**
 * Claude Code's `$ARGUMENTS` (the typed text), `$ARGUMENTS[N]` and `$N` (0-based words, split
 * as a shell would); a `$N` without a word stays as written.
 */
export function markdownArgs(args: string, words: readonly string[]): TemplateArgs {
  const pattern = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)\b/y;
  return {
    find(text, index) {
      if (text[index] !== '$') return undefined;
      pattern.lastIndex = index;
      const match = pattern.exec(text);
      if (!match) return undefined;
      const end = index + match[0].length;
      if (match[1] !== undefined) return { end, value: words[Number(match[1])] ?? '' };
      if (match[2] !== undefined) {
        const word = words[Number(match[2])];
        return word === undefined ? undefined : { end, value: word };
      }
      return { end, value: args };
    },
  };
}

/** Substitutes the arguments into prompt text, as typed. */
export function substituteInText(text: string, templateArgs: TemplateArgs): string {
  let out = '';
  let last = 0;
  for (let index = 0; index < text.length; ) {
    const found = templateArgs.find(text, index);
    if (!found) {
      index += 1;
      continue;
    }
    out += text.slice(last, index) + found.value;
    index = found.end;
    last = found.end;
  }
  return out + text.slice(last);
}

/** Substitutes the arguments into a shell step, each as one literal word. */
export function substituteInShell(
  command: string,
  templateArgs: TemplateArgs,
  onUnquotable: (where: string) => never,
): string {
  return substituteShellPlaceholders(command, {
    find: templateArgs.find,
    unquotable: (context) => onUnquotable(UNQUOTABLE_PLACES[context]),
  });
}

const UNQUOTABLE_PLACES: Readonly<Record<UnquotableContext, string>> = {
  backquotes: 'inside backquotes (use $(…) instead)',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, on purpose
  parameter: 'inside a ${…} expansion',
  arithmetic: 'inside an arithmetic expansion',
  comment: 'inside a comment',
  'here-document': 'in a here-document',
  'case-in-substitution': 'after a `case` inside $(…)',
};
