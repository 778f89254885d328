import { aboutCommand, helpCommand, settingsCommand, statsCommand, toolsCommand } from './info-commands';
import { pendingCommands } from './pending-commands';
import { clearCommand, copyCommand, modelCommand, quitCommand, themeCommand } from './session-commands';
import type { SlashCommand } from './types';

/** The built-in slash commands, in the order /help lists them. */
export function builtinCommands(): SlashCommand[] {
  const commands: SlashCommand[] = [];
  commands.push(
    helpCommand(() => commands),
    clearCommand,
    pendingCommands.find((command) => command.name === 'compress')!,
    copyCommand,
    pendingCommands.find((command) => command.name === 'memory')!,
    toolsCommand,
    pendingCommands.find((command) => command.name === 'mcp')!,
    modelCommand,
    statsCommand,
    pendingCommands.find((command) => command.name === 'chat')!,
    pendingCommands.find((command) => command.name === 'restore')!,
    settingsCommand,
    themeCommand,
    aboutCommand,
    quitCommand,
  );
  return commands;
}

/** `/name args` → the command and its argument text; undefined when the line is not a command. */
export function parseSlashCommand(
  line: string,
  commands: readonly SlashCommand[],
): { command: SlashCommand; args: string } | { unknown: string } | undefined {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(line.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  // `/usr/bin/env is missing` is a prompt about a path, not a command.
  if (name.includes('/')) return undefined;
  const command = commands.find((candidate) => candidate.name === name || candidate.aliases?.includes(name));
  if (!command) return { unknown: name };
  return { command, args: match[2]!.trim() };
}
