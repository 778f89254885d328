// The input pipeline (docs/architecture.md, "Input"): what a line means, in every front end.

export { type InputFilesModule, loadInputFiles } from '../on-demand';
export {
  BUILTIN_COMMANDS,
  type BuiltinCommand,
  type BuiltinCommandName,
  builtinCommandsFor,
  findBuiltinCommand,
} from './builtin-commands';
export { MAX_IMAGE_BYTES } from './image-limits';
export { combinePipedInput } from './piped-input';
export { resolveInput } from './pipeline';
export { runShellLine, type ShellLineResult } from './shell-line';
export { shellCommandNote } from './shell-note';
export { activateSkill, skillActivationParts } from './skills';
export { type CommandListing, listCommands, parseSlash, skillCommandName } from './slash';
export { commandTemplateServices } from './template-services';
export type {
  FrontEnd,
  InputMcp,
  InputSession,
  InputSources,
  LineInput,
  PromptSource,
  ResolvedInput,
  ResolveOptions,
} from './types';
