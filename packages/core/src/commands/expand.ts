import type { Part } from '../contracts/messages';
import type { CustomCommand } from './definition';
import { markdownArgs, substituteInShell, substituteInText, tomlArgs } from './template-args';

/** The result of a shell command a template runs. */
export interface TemplateShellResult {
  /** stdout and stderr together. */
  output: string;
  exitCode?: number | null;
  signal?: string | null;
  aborted?: boolean;
}

/**
 * What expanding a template may do, injected by the front end: shell commands go through the
 * session's policy and approval (a refusal throws `CommandExpansionError`), files through the
 * read tool's workspace and ignore rules.
 */
export interface TemplateServices {
  runShell(command: string, signal: AbortSignal): Promise<TemplateShellResult>;
  /** A file's (or a directory's files') content as parts: text, images, PDF. */
  readPath(path: string, signal: AbortSignal): Promise<Part[]>;
}

/** A template that cannot be expanded: the command is not sent. */
export class CommandExpansionError extends Error {
  override readonly name = 'CommandExpansionError';
}

export interface ExpandedCommand {
  /** What is sent to the model. */
  parts: Part[];
}

/**
 * Turns a command and the text typed after it into the prompt. TOML commands (Gemini CLI): first
 * `@{path}`, then `!{command}` (with `{{args}}` shell-escaped inside), then `{{args}}` as typed;
 * without `{{args}}`, typed arguments are appended after a blank line as the whole command line.
 * Markdown commands (Claude Code): `$ARGUMENTS`, `$ARGUMENTS[N]` / `$N` (0-based, quote-aware),
 * `` !`cmd` `` and ```` ```! ```` blocks, and `@path` files attached before the prompt.
 *
 * Only the command file's own text is template: the steps are found in it before anything is
 * substituted, arguments go in in one pass (one literal word each inside a shell step, see
 * template-args.ts), and what arguments, files and commands bring is never scanned again. Every
 * step is prepared before the first one runs, so a refused placeholder runs nothing.
 */
export async function expandCommand(
  command: CustomCommand,
  args: string,
  services: TemplateServices,
  signal: AbortSignal,
): Promise<ExpandedCommand> {
  const template = substituteRoots(command);
  const refuse = (where: string): never => {
    throw new CommandExpansionError(
      `an argument placeholder ${where} in a shell step cannot be quoted safely; nothing was run.`,
    );
  };
  return command.format === 'toml'
    ? expandToml(template, command, args, { services, signal, refuse })
    : expandMarkdown(template, args, { services, signal, refuse });
}

interface Expansion {
  services: TemplateServices;
  signal: AbortSignal;
  refuse: (where: string) => never;
}

function substituteRoots(command: CustomCommand): string {
  if (!command.extensionPath) return command.template;
  const root = command.extensionPath;
  return command.template
    .replaceAll('${extensionPath}', () => root)
    .replaceAll('${CLAUDE_PLUGIN_ROOT}', () => root);
}

async function expandToml(
  template: string,
  command: CustomCommand,
  args: string,
  expansion: Expansion,
): Promise<ExpandedCommand> {
  const { services, signal } = expansion;
  const templateArgs = tomlArgs(args);
  const pieces = scanBraced(template, ['@{', '!{']).map((piece) => {
    if (piece.kind === 'text') return { kind: piece.kind, text: substituteInText(piece.text, templateArgs) };
    if (piece.kind === '@{') {
      const path = piece.text.trim();
      if (path === '') throw new CommandExpansionError(`Empty @{} in /${command.name}.`);
      return { kind: piece.kind, text: path };
    }
    return { kind: piece.kind, text: substituteInShell(piece.text, templateArgs, expansion.refuse).trim() };
  });
  const parts: Part[] = [];
  let text = '';
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      text += piece.text;
    } else if (piece.kind === '@{') {
      const content = await services.readPath(piece.text, signal);
      for (const part of content) {
        if (typeof part.text === 'string') text += part.text;
        else {
          if (text !== '') parts.push({ text });
          text = '';
          parts.push(part);
        }
      }
    } else {
      const result = await services.runShell(piece.text, signal);
      text += result.output + shellTrailer(piece.text, result);
    }
  }
  if (!template.includes('{{args}}') && args.trim() !== '') text += `\n\n/${command.name} ${args}`;
  if (text !== '' || parts.length === 0) parts.push({ text });
  return { parts: mergeText(parts) };
}

async function expandMarkdown(
  template: string,
  args: string,
  expansion: Expansion,
): Promise<ExpandedCommand> {
  const { services, signal } = expansion;
  const templateArgs = markdownArgs(args, splitShellWords(args));
  const pieces = markdownPieces(template).map((piece) =>
    piece.kind === 'shell'
      ? { ...piece, text: substituteInShell(piece.text, templateArgs, expansion.refuse) }
      : { ...piece, text: substituteInText(piece.text, templateArgs) },
  );
  let text = '';
  const files: string[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'shell') {
      const result = await services.runShell(piece.text, signal);
      text += piece.lead + result.output + shellTrailer(piece.text, result);
      continue;
    }
    text += piece.text;
    if (piece.kind === 'file') files.push(piece.text.slice(piece.text.indexOf('@') + 1));
  }
  if (!/\$ARGUMENTS/.test(template) && args.trim() !== '') text += `\n\nARGUMENTS: ${args}`;
  const attachments: Part[] = [];
  for (const mention of files) {
    const path = mention.replace(/\\ /g, ' ').replace(/[.,;:!?)]+$/, '');
    if (path === '' || path.includes('@')) continue;
    try {
      const content = await services.readPath(path, signal);
      attachments.push({ text: `Content from @${path}:\n` }, ...content, { text: '\n\n' });
    } catch (error) {
      // As in Claude Code, an `@word` that names no readable file is just text.
      if (!(error instanceof CommandExpansionError)) throw error;
    }
  }
  return { parts: mergeText([...attachments, { text }]) };
}

type MarkdownPiece =
  | { kind: 'text'; text: string }
  /** `@path` (with the whitespace before it): the text stays, the file is attached. */
  | { kind: 'file'; text: string }
  /** A ```` ```! ```` block or an inline `` !`…` `` (`lead`: the whitespace before it). */
  | { kind: 'shell'; text: string; lead: string };

/** The steps of a Markdown command's own text, found before anything is substituted. */
function markdownPieces(template: string): MarkdownPiece[] {
  const pieces: MarkdownPiece[] = [];
  const split = (
    text: string,
    pattern: RegExp,
    onMatch: (match: RegExpMatchArray) => void,
    rest: (text: string) => void,
  ) => {
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      rest(text.slice(last, match.index));
      onMatch(match);
      last = (match.index ?? 0) + match[0].length;
    }
    rest(text.slice(last));
  };
  const files = (text: string) =>
    split(
      text,
      /(^|\s)@((?:\\ |[^\s`])+)/g,
      (match) => pieces.push({ kind: 'file', text: match[0] }),
      (plain) => {
        if (plain !== '') pieces.push({ kind: 'text', text: plain });
      },
    );
  const inline = (text: string) =>
    split(
      text,
      /(^|\s)!`([^`\n]+)`/g,
      (match) => pieces.push({ kind: 'shell', text: match[2]!, lead: match[1]! }),
      files,
    );
  split(
    template,
    /^```!\s*\n([\s\S]*?)\n```\s*$/gm,
    (match) => pieces.push({ kind: 'shell', text: match[1]!.trim(), lead: '' }),
    inline,
  );
  return pieces;
}

function shellTrailer(command: string, result: TemplateShellResult): string {
  if (result.aborted) return `\n[Shell command '${command}' aborted]`;
  if (result.signal) return `\n[Shell command '${command}' terminated by signal ${result.signal}]`;
  if (typeof result.exitCode === 'number' && result.exitCode !== 0) {
    return `\n[Shell command '${command}' exited with code ${result.exitCode}]`;
  }
  return '';
}

type Piece = { kind: 'text' | '@{' | '!{'; text: string };

/** Splits a template into text and `@{…}` / `!{…}` spans; braces inside a span must balance. */
export function scanBraced(template: string, openers: readonly ('@{' | '!{')[]): Piece[] {
  const pieces: Piece[] = [];
  let index = 0;
  let textStart = 0;
  while (index < template.length) {
    const opener = openers.find((candidate) => template.startsWith(candidate, index));
    if (!opener) {
      index += 1;
      continue;
    }
    if (index > textStart) pieces.push({ kind: 'text', text: template.slice(textStart, index) });
    let depth = 1;
    let end = index + 2;
    for (; end < template.length && depth > 0; end += 1) {
      if (template[end] === '{') depth += 1;
      else if (template[end] === '}') depth -= 1;
    }
    if (depth !== 0) {
      throw new CommandExpansionError(`Unbalanced braces in ${opener}…} starting at character ${index + 1}.`);
    }
    pieces.push({ kind: opener, text: template.slice(index + 2, end - 1) });
    index = end;
    textStart = end;
  }
  if (textStart < template.length) pieces.push({ kind: 'text', text: template.slice(textStart) });
  return pieces;
}

/** Words as a shell would split them: quotes group, backslash escapes. */
export function splitShellWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && index + 1 < text.length) current += text[++index];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < text.length) {
      current += text[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

function mergeText(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    const previous = out.at(-1);
    if (
      typeof part.text === 'string' &&
      previous &&
      typeof previous.text === 'string' &&
      Object.keys(previous).length === 1
    ) {
      previous.text += part.text;
    } else {
      out.push({ ...part });
    }
  }
  return out;
}
