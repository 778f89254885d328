import type { Part } from '../contracts/messages';
import type { CustomCommand } from './definition';

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
 */
export async function expandCommand(
  command: CustomCommand,
  args: string,
  services: TemplateServices,
  signal: AbortSignal,
): Promise<ExpandedCommand> {
  const template = substituteRoots(command);
  return command.format === 'toml'
    ? expandToml(template, command, args, services, signal)
    : expandMarkdown(template, args, services, signal);
}

function substituteRoots(command: CustomCommand): string {
  if (!command.extensionPath) return command.template;
  const root = command.extensionPath;
  return command.template.replaceAll('${extensionPath}', root).replaceAll('${CLAUDE_PLUGIN_ROOT}', root);
}

async function expandToml(
  template: string,
  command: CustomCommand,
  args: string,
  services: TemplateServices,
  signal: AbortSignal,
): Promise<ExpandedCommand> {
  const pieces = scanBraced(template, ['@{', '!{']);
  const parts: Part[] = [];
  let text = '';
  const usesArgs = template.includes('{{args}}');
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      text += piece.text.replaceAll('{{args}}', args);
    } else if (piece.kind === '@{') {
      const path = piece.text.trim();
      if (path === '') throw new CommandExpansionError(`Empty @{} in /${command.name}.`);
      const content = await services.readPath(path, signal);
      for (const part of content) {
        if (typeof part.text === 'string') text += part.text;
        else {
          if (text !== '') parts.push({ text });
          text = '';
          parts.push(part);
        }
      }
    } else {
      const shellCommand = piece.text.replaceAll('{{args}}', shellEscape(args)).trim();
      const result = await services.runShell(shellCommand, signal);
      text += result.output + shellTrailer(shellCommand, result);
    }
  }
  if (!usesArgs && args.trim() !== '') text += `\n\n/${command.name} ${args}`;
  if (text !== '' || parts.length === 0) parts.push({ text });
  return { parts: mergeText(parts) };
}

async function expandMarkdown(
  template: string,
  args: string,
  services: TemplateServices,
  signal: AbortSignal,
): Promise<ExpandedCommand> {
  const words = splitShellWords(args);
  let text = template;
  const hadPlaceholder = /\$ARGUMENTS/.test(text);
  text = text.replace(/\$ARGUMENTS\[(\d+)\]/g, (_match, index: string) => words[Number(index)] ?? '');
  text = text.replace(/\$ARGUMENTS\b/g, () => args);
  // `$N` is 0-based; a `$N` without an argument stays as written.
  text = text.replace(/\$(\d+)\b/g, (match, index: string) => words[Number(index)] ?? match);
  if (!hadPlaceholder && args.trim() !== '') text += `\n\nARGUMENTS: ${args}`;
  text = await replaceAsync(text, /^```!\s*\n([\s\S]*?)\n```\s*$/gm, async (_match, body: string) => {
    const result = await services.runShell(body.trim(), signal);
    return result.output + shellTrailer(body.trim(), result);
  });
  text = await replaceAsync(
    text,
    /(^|\s)!`([^`\n]+)`/g,
    async (_match, lead: string, shellCommand: string) => {
      const result = await services.runShell(shellCommand, signal);
      return lead + result.output + shellTrailer(shellCommand, result);
    },
  );
  const attachments: Part[] = [];
  for (const match of text.matchAll(/(?:^|\s)@((?:\\ |[^\s`])+)/g)) {
    const path = match[1]!.replace(/\\ /g, ' ').replace(/[.,;:!?)]+$/, '');
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

/** POSIX single-quoting: the argument text arrives in the command as one literal word. */
export function shellEscape(text: string): string {
  if (text === '') return "''";
  return `'${text.replace(/'/g, `'\\''`)}'`;
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

async function replaceAsync(
  text: string,
  pattern: RegExp,
  replace: (...groups: string[]) => Promise<string>,
): Promise<string> {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out += text.slice(last, match.index);
    out += await replace(...(match as unknown as string[]));
    last = (match.index ?? 0) + match[0].length;
  }
  return out + text.slice(last);
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
