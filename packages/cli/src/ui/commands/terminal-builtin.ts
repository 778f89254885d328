/**
 * A built-in session command in the terminal: core declares what it is called and what it does
 * (BUILTIN_COMMANDS, which ACP and the input pipeline read too); the terminal adds only how it
 * runs here. So a name, alias or description is written once, in core.
 */
import { type BuiltinCommandName, findBuiltinCommand } from '@kodo/core/engine';
import type { SlashCommand, SlashCommandBehaviour } from './types';

export function terminalBuiltin(name: BuiltinCommandName, behaviour: SlashCommandBehaviour): SlashCommand {
  const declared = findBuiltinCommand(name);
  // The name type rules out a missing entry; the front-end list is data that can still change.
  if (!declared?.frontEnds.includes('terminal')) {
    throw new Error(`/${name} is not declared as a terminal command in core's BUILTIN_COMMANDS`);
  }
  return {
    ...behaviour,
    name: declared.name,
    ...(declared.aliases?.length ? { aliases: declared.aliases } : {}),
    description: declared.description,
    ...(declared.argumentHint ? { argumentHint: declared.argumentHint } : {}),
  };
}
