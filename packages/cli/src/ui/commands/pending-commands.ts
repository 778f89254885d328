import type { SlashCommand } from './types';

/**
 * Commands whose features arrive with later work: they exist, complete and answer clearly
 * instead of being "unknown commands".
 */
function notYet(
  name: string,
  description: string,
  feature: string,
  options: { aliases?: string[]; subcommands?: string[] } = {},
): SlashCommand {
  return {
    name,
    description,
    ...(options.aliases ? { aliases: options.aliases } : {}),
    ...(options.subcommands
      ? { subcommands: options.subcommands.map((sub) => ({ name: sub, description: `${name} ${sub}` })) }
      : {}),
    whileBusy: true,
    run({ addItem }) {
      addItem({
        kind: 'info',
        tone: 'warning',
        text: `/${name} is not available yet: ${feature} is not part of this build.`,
      });
    },
  };
}

export const pendingCommands: SlashCommand[] = [
  notYet('chat', 'Save, resume, list and delete conversations', 'saving and resuming conversations', {
    aliases: ['resume'],
    subcommands: ['save', 'resume', 'list', 'delete'],
  }),
  notYet('compress', 'Summarise the conversation to free context', 'chat compression', {
    aliases: ['summarize', 'compact'],
  }),
  notYet('memory', 'Show, add to or reload the context files (KODO.md)', 'context-file memory', {
    subcommands: ['show', 'add', 'refresh'],
  }),
  notYet('mcp', 'MCP servers and their tools', 'MCP support'),
  notYet('restore', 'Restore files from a checkpoint', 'checkpointing'),
];
