/**
 * Commands over ACP: what core's input pipeline lists for this front end (the built-in session
 * commands editors run, custom commands, skills, MCP prompts), advertised in
 * `available_commands_update`; and the built-ins' behaviour here.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { type InputSources, listCommands, type Runtime, type Session } from '@kodo/core/engine';

export function availableCommands(sources: InputSources): acp.AvailableCommand[] {
  return listCommands(sources, 'acp').map((command) => ({
    name: command.name,
    description: command.description,
    ...(command.hint ? { input: { hint: command.hint } } : {}),
  }));
}

/** Runs a built-in session command the pipeline resolved (see BUILTIN_COMMANDS, front end `acp`). */
export async function runSessionCommand(
  command: { name: string; args: string },
  { session, runtime }: { session: Session; runtime: Pick<Runtime, 'clearConversation'> },
  signal: AbortSignal,
): Promise<string> {
  const { name, args } = command;
  switch (name) {
    case 'compress': {
      const result = await session.compress(signal, args ? { instructions: args } : {});
      return result.status === 'compressed'
        ? `Compressed the conversation: ${result.originalTokens} → ${result.newTokens} tokens.`
        : `Nothing compressed (${result.status}).`;
    }
    case 'clear':
      // As in the terminal: SessionEnd (`clear`), an empty history, SessionStart (`clear`).
      await runtime.clearConversation(session, signal);
      return 'Cleared the conversation.';
    case 'stats': {
      const usage = session.budget.usage();
      return `Tokens: ${usage.tokens}. Tool calls: ${usage.toolCalls}. Cost: $${usage.costUsd.toFixed(4)}${
        usage.unpricedModels.length ? ` (unpriced: ${usage.unpricedModels.join(', ')})` : ''
      }.`;
    }
    default:
      return `/${name} does not run over ACP.`;
  }
}
