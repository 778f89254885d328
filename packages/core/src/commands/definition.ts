import { hasStringFields } from '../utils/is-record';

/** Where a command came from. */
export type CommandScope = 'user' | 'workspace' | 'extension' | 'plugin';

/** A custom slash command file: Gemini CLI TOML or Claude Code Markdown. */
export interface CustomCommand {
  /** The name typed after `/` (`git:commit`), after conflict resolution. */
  name: string;
  /** The name its path gives (`git:commit`), before any prefix. */
  baseName: string;
  description: string;
  /** `toml`: `{{args}}`, `!{…}`, `@{…}`; `markdown`: `$ARGUMENTS`, `$N`, `` !`…` ``, `@path`. */
  format: 'toml' | 'markdown';
  /** The prompt template. */
  template: string;
  /** Absolute path of the file. */
  path: string;
  scope: CommandScope;
  /** The extension or plugin that brings it. */
  extensionName?: string;
  /** The extension's or plugin's folder (`${extensionPath}`, `${CLAUDE_PLUGIN_ROOT}`). */
  extensionPath?: string;
  /** Claude Code `argument-hint`, shown in completion. */
  argumentHint?: string;
  /** Claude Code `allowed-tools`: recorded, see docs/extending.md for what kodo does with it. */
  allowedTools?: string[];
  /** Claude Code `model`. */
  model?: string;
}

/** Whether data read back from a cache file has a command's shape. */
export function isCustomCommand(value: unknown): value is CustomCommand {
  return (
    hasStringFields(value, ['name', 'baseName', 'description', 'template', 'path', 'scope']) &&
    (value.format === 'toml' || value.format === 'markdown')
  );
}

export type CommandSource = Pick<CustomCommand, 'scope' | 'extensionName' | 'extensionPath'>;

/** The `<plugin>:<name>` a plugin command also answers to (its name when that is unique). */
export function qualifiedCommandName(command: CustomCommand): string | undefined {
  return command.scope === 'plugin' && command.extensionName
    ? `${command.extensionName}:${command.baseName}`
    : undefined;
}
