/**
 * What `/<name>` names, in one order for every front end: a built-in session command, a custom
 * command, a skill, an MCP prompt. A custom command may not take a built-in's name; a skill
 * yields to a custom command of the same name; an MCP prompt comes last (Gemini CLI loads them
 * in this order too).
 */
import { type CustomCommand, qualifiedCommandName } from '../commands/definition';
import type { McpPromptCommand } from '../mcp/prompts';
import type { SkillDefinition } from '../skills/definition';
import { BUILTIN_COMMANDS, type BuiltinCommand, findBuiltinCommand } from './builtin-commands';
import type { FrontEnd, InputSources } from './types';

const SLASH = /^\/(\S*)\s*([\s\S]*)$/;

export type SlashTarget =
  | { kind: 'builtin'; command: BuiltinCommand; runsHere: boolean }
  | { kind: 'extra'; name: string }
  | { kind: 'custom_command'; command: CustomCommand }
  | { kind: 'skill'; skill: SkillDefinition; name: string }
  | { kind: 'mcp_prompt'; prompt: McpPromptCommand };

/** `/name rest` → its parts; undefined when the line is not a command (`/usr/bin/env …` is a path). */
export function parseSlash(line: string): { name: string; args: string } | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const match = SLASH.exec(trimmed);
  if (!match) return undefined;
  const name = match[1]!;
  if (name === '' || name.includes('/')) return undefined;
  return { name, args: match[2]!.trim() };
}

/** The name a skill answers to: spaces as `-`, lower case; an extension's as `<ext>:<skill>`. */
export function skillCommandName(skill: SkillDefinition): string {
  const base = skill.name.replace(/\s+/g, '-').toLowerCase();
  return skill.extensionName ? `${skill.extensionName.toLowerCase()}:${base}` : base;
}

export function findSlashTarget(
  name: string,
  sources: InputSources,
  context: { frontEnd: FrontEnd; extraCommands?: readonly string[] },
): SlashTarget | undefined {
  const wanted = name.toLowerCase();
  const builtin = findBuiltinCommand(wanted);
  if (builtin)
    return { kind: 'builtin', command: builtin, runsHere: builtin.frontEnds.includes(context.frontEnd) };
  if (context.extraCommands?.some((extra) => extra.toLowerCase() === wanted))
    return { kind: 'extra', name: wanted };
  const command = findCustomCommand(sources.commands?.() ?? [], name);
  if (command) return { kind: 'custom_command', command };
  const skill = (sources.skills?.() ?? []).find((candidate) => skillCommandName(candidate) === wanted);
  if (skill) return { kind: 'skill', skill, name: skillCommandName(skill) };
  const prompts = sources.mcp?.promptCommands() ?? [];
  const prompt =
    prompts.find((candidate) => candidate.name === name) ??
    prompts.find((candidate) => candidate.name.toLowerCase() === wanted);
  if (prompt) return { kind: 'mcp_prompt', prompt };
  return undefined;
}

function findCustomCommand(commands: readonly CustomCommand[], name: string): CustomCommand | undefined {
  const wanted = name.toLowerCase();
  return (
    commands.find((command) => command.name === name) ??
    commands.find((command) => command.name.toLowerCase() === wanted) ??
    // A plugin command also answers to `<plugin>:<name>` when its plain name is enough.
    commands.find((command) => qualifiedCommandName(command)?.toLowerCase() === wanted)
  );
}

/** Every command a line can name in this front end, for a list (ACP's `available_commands_update`, an error). */
export interface CommandListing {
  name: string;
  description: string;
  hint?: string;
  kind: 'builtin' | 'custom_command' | 'skill' | 'mcp_prompt';
}

export function listCommands(sources: InputSources, frontEnd: FrontEnd): CommandListing[] {
  const listed: CommandListing[] = [];
  const taken = new Set<string>();
  const add = (entry: CommandListing) => {
    const key = entry.name.toLowerCase();
    if (taken.has(key)) return;
    taken.add(key);
    listed.push(entry);
  };
  for (const command of builtinListing(frontEnd)) add(command);
  // A custom command may not take a built-in's name, wherever that built-in runs.
  const reserved = new Set(BUILTIN_COMMANDS.flatMap((entry) => [entry.name, ...(entry.aliases ?? [])]));
  for (const command of sources.commands?.() ?? []) {
    if (reserved.has(command.name.toLowerCase())) continue;
    add({
      name: command.name,
      description: command.description,
      ...(command.argumentHint ? { hint: command.argumentHint } : {}),
      kind: 'custom_command',
    });
  }
  for (const skill of sources.skills?.() ?? []) {
    add({ name: skillCommandName(skill), description: skill.description, kind: 'skill' });
  }
  for (const prompt of sources.mcp?.promptCommands() ?? []) {
    add({
      name: prompt.name,
      description: prompt.description || `MCP prompt from ${prompt.server}`,
      ...(prompt.prompt.arguments?.length
        ? { hint: prompt.prompt.arguments.map((arg) => arg.name).join(' ') }
        : {}),
      kind: 'mcp_prompt',
    });
  }
  return listed;
}

function builtinListing(frontEnd: FrontEnd): CommandListing[] {
  return BUILTIN_COMMANDS.filter((command) => command.frontEnds.includes(frontEnd)).map((command) => ({
    name: command.name,
    description: command.description,
    ...(command.argumentHint ? { hint: command.argumentHint } : {}),
    kind: 'builtin' as const,
  }));
}
