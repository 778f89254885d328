import type { McpManager } from '@kodo/core/engine';
import { hooksSlashCommand } from '../../commands/hooks';
import { createMcpSlashCommand } from '../../commands/mcp-status';
import { contextCommand } from './context-command';
import { effortCommand } from './effort-command';
import { exportCommand } from './export-command';
import {
  chatCommand,
  compressCommand,
  memoryCommand,
  restoreCommand,
  rewindCommand,
} from './feature-commands';
import {
  aboutCommand,
  agentsCommand,
  helpCommand,
  settingsCommand,
  statsCommand,
  toolsCommand,
} from './info-commands';
import { initCommand } from './init-command';
import { permissionsCommand } from './permissions-command';
import { reviewCommand } from './review-command';
import {
  clearCommand,
  copyCommand,
  forkCommand,
  modelCommand,
  quitCommand,
  themeCommand,
} from './session-commands';
import type { SlashCommand } from './types';
import { vimCommand } from './vim-command';

/** The built-in slash commands, in the order /help lists them. */
export function builtinCommands(options: { mcp?: () => McpManager | undefined } = {}): SlashCommand[] {
  const commands: SlashCommand[] = [];
  commands.push(
    helpCommand(() => commands),
    clearCommand,
    compressCommand,
    contextCommand,
    copyCommand,
    reviewCommand(),
    exportCommand,
    forkCommand,
    initCommand,
    memoryCommand,
    toolsCommand,
    agentsCommand,
    createMcpSlashCommand(options.mcp ?? (() => undefined)),
    hooksSlashCommand,
    modelCommand,
    effortCommand,
    statsCommand,
    chatCommand,
    restoreCommand,
    rewindCommand,
    settingsCommand,
    permissionsCommand,
    themeCommand,
    vimCommand,
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
