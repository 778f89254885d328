import { loadMcpModule, type McpManager } from '@kodo/core/engine';
import { ExitCode, FatalError } from './exit-codes';

/**
 * What MCP does to a headless prompt: `/<prompt> args` of a server's prompt becomes that prompt's
 * text, and `@<server>:<uri>` references get the resource's content appended, as in an
 * interactive session. Input that uses neither comes back unchanged.
 */
export async function expandMcpInput(
  input: string,
  manager: McpManager,
  options: { signal: AbortSignal; onWarning: (message: string) => void },
): Promise<string> {
  const mcp = await loadMcpModule();
  let text = input;
  const slash = /^\/(\S+)\s*([\s\S]*)$/.exec(input.trim());
  const command = slash
    ? manager.promptCommands().find((candidate) => candidate.name === slash[1])
    : undefined;
  if (slash && command) {
    const rest = slash[2] ?? '';
    if (rest.trim() === 'help') throw new FatalError(mcp.promptHelp(command), ExitCode.input);
    const parsed = mcp.parsePromptArguments(rest, command.prompt.arguments);
    if (!parsed.ok) throw new FatalError(parsed.message, ExitCode.input);
    const messages = await manager.getPrompt(
      command.server,
      command.prompt.name,
      parsed.values,
      options.signal,
    );
    text = mcp.promptText(messages);
  }
  const expanded = await mcp.expandResourceReferences(text, manager, options.signal);
  for (const skipped of expanded.skipped) options.onWarning(`Not attached: ${skipped}`);
  return expanded.text;
}
