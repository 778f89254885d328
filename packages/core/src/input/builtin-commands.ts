/**
 * kodo's built-in session commands as data: what each is called, what it does, what it takes and
 * which front ends can run it. The pipeline reads this table to tell a built-in from a custom
 * command; ACP advertises the ones it runs; the terminal's registry must cover its own (a test
 * checks both ways). The behaviour lives with each front end: `/clear` in the terminal clears the
 * screen as well, over ACP it only forgets the conversation.
 */
import type { FrontEnd } from './types';

export interface BuiltinCommand {
  name: string;
  aliases?: readonly string[];
  description: string;
  /** What may follow the name, for completion and ACP's `input.hint`. */
  argumentHint?: string;
  /** The front ends that run it. Elsewhere the line is an error that says where it runs. */
  frontEnds: readonly FrontEnd[];
}

const TERMINAL: readonly FrontEnd[] = ['terminal'];
const EVERY_SESSION: readonly FrontEnd[] = ['terminal', 'acp'];

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { name: 'help', aliases: ['?'], description: 'Commands and keyboard shortcuts', frontEnds: TERMINAL },
  {
    name: 'clear',
    aliases: ['new'],
    description: 'Forget the conversation and start anew (the session log keeps it)',
    frontEnds: EVERY_SESSION,
  },
  {
    name: 'compress',
    aliases: ['summarize', 'compact'],
    description: 'Summarise the conversation to free context',
    argumentHint: 'what the summary must keep',
    frontEnds: EVERY_SESSION,
  },
  { name: 'context', description: 'Where the context window goes', frontEnds: TERMINAL },
  { name: 'copy', description: 'Copy the last answer to the clipboard', frontEnds: TERMINAL },
  {
    name: 'review',
    description: 'Review the working tree’s changes, read-only',
    argumentHint: 'range',
    frontEnds: TERMINAL,
  },
  {
    name: 'export',
    aliases: ['export-session'],
    description: 'Write the conversation to a file',
    argumentHint: 'md|json path',
    frontEnds: TERMINAL,
  },
  { name: 'fork', description: 'Continue in a new session from here', frontEnds: TERMINAL },
  { name: 'init', description: 'Have the model write a tailored KODO.md', frontEnds: TERMINAL },
  { name: 'memory', description: 'Show, list, add to or reload the context files', frontEnds: TERMINAL },
  { name: 'tools', description: 'List the tools the model can use', frontEnds: TERMINAL },
  { name: 'agents', description: 'List the subagents the model can delegate to', frontEnds: TERMINAL },
  { name: 'mcp', description: 'MCP servers: state and tools', frontEnds: TERMINAL },
  { name: 'hooks', description: 'List hooks, or enable or disable one', frontEnds: TERMINAL },
  { name: 'model', description: 'Pick or switch the model', argumentHint: 'name', frontEnds: TERMINAL },
  { name: 'effort', description: 'How hard the model thinks', argumentHint: 'level', frontEnds: TERMINAL },
  {
    name: 'stats',
    aliases: ['usage'],
    description: 'Tokens, tool calls and cost so far',
    frontEnds: EVERY_SESSION,
  },
  {
    name: 'chat',
    aliases: ['resume'],
    description: 'Continue a recorded session, or manage save points',
    frontEnds: TERMINAL,
  },
  { name: 'restore', description: 'List or restore checkpoints', frontEnds: TERMINAL },
  { name: 'rewind', description: 'Go back N prompts', argumentHint: 'N', frontEnds: TERMINAL },
  { name: 'settings', description: 'Show the settings in use', frontEnds: TERMINAL },
  { name: 'permissions', description: 'Show or change whether this folder is trusted', frontEnds: TERMINAL },
  { name: 'theme', description: 'Switch the colour theme', frontEnds: TERMINAL },
  { name: 'vim', description: 'Toggle vim keybindings in the input', frontEnds: TERMINAL },
  { name: 'about', description: 'Version, runtime and model', frontEnds: TERMINAL },
  { name: 'quit', aliases: ['exit'], description: 'Exit kodo', frontEnds: TERMINAL },
  { name: 'commands', description: 'List or reload the custom commands', frontEnds: TERMINAL },
  { name: 'skills', description: 'List, enable, disable or reload skills', frontEnds: TERMINAL },
];

/** The built-in a name (or alias) means, case-insensitively. */
export function findBuiltinCommand(name: string): BuiltinCommand | undefined {
  const wanted = name.toLowerCase();
  return BUILTIN_COMMANDS.find((command) => command.name === wanted || command.aliases?.includes(wanted));
}

/** The built-ins a front end runs, in the table's order. */
export function builtinCommandsFor(frontEnd: FrontEnd): BuiltinCommand[] {
  return BUILTIN_COMMANDS.filter((command) => command.frontEnds.includes(frontEnd));
}
