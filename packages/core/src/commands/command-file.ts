import { parseFrontmatter, stringList } from '../utils/frontmatter';
import type { CommandSource, CustomCommand } from './definition';

/** A file that is not a command, with the reason (shown as a warning). */
export interface CommandFileProblem {
  path: string;
  message: string;
}

/** A Gemini CLI TOML command: `prompt` (required) and `description`. */
export async function parseTomlCommand(
  path: string,
  baseName: string,
  text: string,
  source: CommandSource,
): Promise<CustomCommand | CommandFileProblem> {
  const { parse } = await import('smol-toml');
  let value: Record<string, unknown>;
  try {
    value = parse(text) as Record<string, unknown>;
  } catch (error) {
    return {
      path,
      message: `Invalid TOML in command file ${path}: ${(error as Error).message.split('\n')[0]}`,
    };
  }
  if (typeof value.prompt !== 'string') {
    return { path, message: `Command file ${path} has no "prompt" string.` };
  }
  const description =
    typeof value.description === 'string' && value.description.trim() !== ''
      ? value.description.trim()
      : `Custom command from ${baseName.split(':').pop()}.toml`;
  return {
    name: baseName,
    baseName,
    description: prefixed(description, source),
    format: 'toml',
    template: value.prompt,
    path,
    ...source,
  };
}

/**
 * A Claude Code Markdown command: optional frontmatter (`description`, `argument-hint`,
 * `allowed-tools`, `model`; other keys are ignored) and the body as the prompt.
 */
export async function parseMarkdownCommand(
  path: string,
  baseName: string,
  text: string,
  source: CommandSource,
): Promise<CustomCommand> {
  const parsed = await parseFrontmatter(text);
  const data = parsed?.data ?? {};
  const body = parsed ? parsed.body : text.trim();
  const described =
    typeof data.description === 'string' && data.description.trim() !== ''
      ? data.description.trim()
      : undefined;
  const firstLine = body
    .split(/\r?\n/)
    .find((line) => line.trim() !== '')
    ?.replace(/^#+\s*/, '')
    .trim();
  const allowedTools = stringList(data['allowed-tools']);
  return {
    name: baseName,
    baseName,
    description: prefixed(
      described ?? firstLine ?? `Custom command from ${baseName.split(':').pop()}.md`,
      source,
    ),
    format: 'markdown',
    template: body,
    path,
    ...source,
    ...(typeof data['argument-hint'] === 'string' ? { argumentHint: data['argument-hint'] } : {}),
    ...(allowedTools && allowedTools.length > 0 ? { allowedTools } : {}),
    ...(typeof data.model === 'string' && data.model.trim() !== '' ? { model: data.model.trim() } : {}),
  };
}

function prefixed(description: string, source: CommandSource): string {
  return source.extensionName ? `[${source.extensionName}] ${description}` : description;
}
