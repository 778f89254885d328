/**
 * kodo's built-in session commands as data: what each is called, what it does, what it takes and
 * which front ends can run it. The pipeline reads this table to tell a built-in from a custom
 * command; ACP advertises the ones it runs; the terminal's registry takes each of its own from here
 * and adds behaviour (a test checks both ways). The behaviour lives with each front end: `/clear`
 * in the terminal clears the screen as well, over ACP it only forgets the conversation.
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

/**
 * The only declaration of each built-in's name, aliases, description and argument hint: front
 * ends add behaviour (the terminal's registry takes these fields from here, ACP advertises them).
 * The descriptions of the commands that run in more than one front end say nothing specific to one.
 */
const TABLE = [
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
  {
    name: 'context',
    description: 'Where the context window goes: system prompt, tools, MCP servers, files, skills, history',
    frontEnds: TERMINAL,
  },
  {
    name: 'copy',
    description: 'Copy the last answer to the clipboard (OSC 52)',
    frontEnds: TERMINAL,
  },
  {
    name: 'review',
    description: 'Review the working tree’s changes (or a range such as main...HEAD), read-only',
    argumentHint: 'range',
    frontEnds: TERMINAL,
  },
  {
    name: 'export',
    aliases: ['export-session'],
    description: 'Write the conversation to a file (Markdown, or JSON as kodo keeps it)',
    argumentHint: 'md|json path',
    frontEnds: TERMINAL,
  },
  {
    name: 'fork',
    description: 'Continue in a new session from here; the current one stays saved as it is',
    frontEnds: TERMINAL,
  },
  {
    name: 'init',
    description:
      'Analyse the project and have the model write a tailored KODO.md (or the configured context file)',
    frontEnds: TERMINAL,
  },
  {
    name: 'memory',
    description:
      'Show, list, add to or reload the context files (KODO.md, AGENTS.md, GEMINI.md); the inbox of proposed memories',
    frontEnds: TERMINAL,
  },
  {
    name: 'tools',
    description: 'List the tools the model can use (`/tools desc` with descriptions)',
    frontEnds: TERMINAL,
  },
  {
    name: 'agents',
    description: 'List the subagents the model can delegate to (`@name` in a prompt asks for one)',
    frontEnds: TERMINAL,
  },
  { name: 'mcp', description: 'MCP servers: state and tools; refresh reconnects', frontEnds: TERMINAL },
  { name: 'hooks', description: 'List hooks, or enable or disable one', frontEnds: TERMINAL },
  {
    name: 'model',
    description: 'Pick the model from a list, or switch to one',
    argumentHint: 'name',
    frontEnds: TERMINAL,
  },
  {
    name: 'effort',
    description: 'How hard the model thinks, from the next request',
    argumentHint: 'off|low|medium|high|max|default',
    frontEnds: TERMINAL,
  },
  {
    name: 'stats',
    aliases: ['usage'],
    description: 'Requests, tokens, cost and tool calls of this session',
    frontEnds: EVERY_SESSION,
  },
  {
    name: 'chat',
    aliases: ['resume'],
    description:
      "Continue a recorded session (kodo's, Gemini CLI's, Claude Code's, Codex's) by number or id, or manage save points",
    frontEnds: TERMINAL,
  },
  {
    name: 'restore',
    description: 'List checkpoints, or restore files (and with --conversation, the chat) to one',
    argumentHint: 'id --conversation',
    frontEnds: TERMINAL,
  },
  {
    name: 'rewind',
    description: 'Go back N prompts',
    argumentHint: 'N code|conversation|both',
    frontEnds: TERMINAL,
  },
  {
    name: 'settings',
    description: 'Show the settings files in use and the merged values',
    frontEnds: TERMINAL,
  },
  {
    name: 'permissions',
    description: 'Show or change whether this folder is trusted',
    frontEnds: TERMINAL,
  },
  {
    name: 'theme',
    description: 'Switch the colour theme (saved as ui.theme)',
    argumentHint: 'dark|light|ansi|no-color|<custom>',
    frontEnds: TERMINAL,
  },
  {
    name: 'vim',
    description: 'Toggle vim keybindings in the input (saved as general.vimMode)',
    frontEnds: TERMINAL,
  },
  { name: 'about', description: 'Version, runtime and model', frontEnds: TERMINAL },
  { name: 'quit', aliases: ['exit'], description: 'Exit kodo', frontEnds: TERMINAL },
  {
    name: 'commands',
    description: 'List or reload the custom commands (Gemini CLI TOML, Claude Code Markdown, kodo)',
    frontEnds: TERMINAL,
  },
  { name: 'skills', description: 'List, enable, disable or reload the agent skills', frontEnds: TERMINAL },
] as const satisfies readonly BuiltinCommand[];

/** A built-in's name, so a front end's behaviour for a command the table lacks does not compile. */
export type BuiltinCommandName = (typeof TABLE)[number]['name'];

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = TABLE;

/** The built-in a name (or alias) means, case-insensitively. */
export function findBuiltinCommand(name: string): BuiltinCommand | undefined {
  const wanted = name.toLowerCase();
  return BUILTIN_COMMANDS.find((command) => command.name === wanted || command.aliases?.includes(wanted));
}

/** The built-ins a front end runs, in the table's order. */
export function builtinCommandsFor(frontEnd: FrontEnd): BuiltinCommand[] {
  return BUILTIN_COMMANDS.filter((command) => command.frontEnds.includes(frontEnd));
}
