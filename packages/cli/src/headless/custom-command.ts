import type {
  AgentEvent,
  CustomCommand,
  Extensibility,
  McpManager,
  Part,
  Session,
  TemplateServices,
} from '@kodo/core/engine';
import { loadExtensionsModule, qualifiedCommandName } from '@kodo/core/engine';
import { ExitCode, FatalError } from '../exit-codes';
import { userToolServices } from '../user-tool-calls';

const SLASH = /^\/([A-Za-z0-9_][\w:.-]*)(?:\s+([\s\S]*))?$/;

/**
 * A headless prompt that starts with `/<name>`: a custom command (Gemini CLI TOML, Claude Code
 * Markdown, kodo's own) becomes its expanded prompt; an MCP prompt is left to the MCP step
 * (undefined); any other name stops the run with exit 42 and the list of commands there are.
 * Its shell commands run as tool calls through the session's policy, so headless they are
 * refused unless a policy or `tools.allowed` allows them.
 */
export async function expandHeadlessCommand(
  input: string,
  context: {
    session: Session;
    extensibility?: Extensibility;
    mcp?: McpManager;
    signal: AbortSignal;
    onEvent: (event: AgentEvent) => void;
  },
): Promise<Part[] | undefined> {
  const trimmed = input.trim();
  // Most prompts are not commands: skip compiling the pattern (its \s classes are large) for them.
  if (!trimmed.startsWith('/')) return undefined;
  const match = SLASH.exec(trimmed);
  if (!match) return undefined;
  const name = match[1]!;
  const args = (match[2] ?? '').trim();
  const commands = context.extensibility?.commands ?? [];
  const command = findCommand(commands, name);
  if (!command) {
    const prompts = context.mcp?.promptCommands().map((prompt) => prompt.name) ?? [];
    if (prompts.includes(name)) return undefined;
    throw new FatalError(unknownCommandMessage(name, commands, prompts), ExitCode.input);
  }
  const module = await loadExtensionsModule();
  const services: TemplateServices = userToolServices(context.session, {
    onEvent: context.onEvent,
    commandName: command.name,
  });
  try {
    const expanded = await module.expandCommand(command, args, services, context.signal);
    return expanded.parts;
  } catch (error) {
    if (error instanceof module.CommandExpansionError) {
      throw new FatalError(`/${command.name}: ${error.message}`, ExitCode.input);
    }
    throw error;
  }
}

function findCommand(commands: readonly CustomCommand[], name: string): CustomCommand | undefined {
  return (
    commands.find((command) => command.name === name) ??
    commands.find((command) => command.name.toLowerCase() === name.toLowerCase()) ??
    // A plugin command also answers to `<plugin>:<name>` when its plain name is enough.
    commands.find((command) => qualifiedCommandName(command)?.toLowerCase() === name.toLowerCase())
  );
}

function unknownCommandMessage(
  name: string,
  commands: readonly CustomCommand[],
  prompts: readonly string[],
): string {
  const known = [
    ...commands.map((command) => `  /${command.name}  ${command.description}`),
    ...prompts.map((prompt) => `  /${prompt}  (MCP prompt)`),
  ];
  if (known.length === 0)
    return `Unknown command: /${name}. There are no custom commands (see docs/extending.md).`;
  return `Unknown command: /${name}. Known commands:\n${known.join('\n')}`;
}
