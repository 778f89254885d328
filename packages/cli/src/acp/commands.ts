/**
 * Slash commands over ACP: the few session commands that make sense in an editor, and the
 * prompts of connected MCP servers (expanded into the prompt, as in headless mode). Anything
 * else that starts with `/` goes to the model as typed.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { McpManager, Runtime, Session } from '@kodo/core/engine';

export const SESSION_COMMANDS: acp.AvailableCommand[] = [
  { name: 'compress', description: 'Summarise the conversation to free context' },
  { name: 'clear', description: 'Forget the conversation (the session log keeps it)' },
  { name: 'stats', description: 'Tokens, tool calls and cost so far' },
];

export function availableCommands(mcp: McpManager | undefined): acp.AvailableCommand[] {
  const prompts = (mcp?.promptCommands() ?? []).map((command) => ({
    name: command.name,
    description: command.description || `MCP prompt from ${command.server}`,
    ...(command.prompt.arguments?.length
      ? { input: { hint: command.prompt.arguments.map((arg) => arg.name).join(' ') } }
      : {}),
  }));
  return [...SESSION_COMMANDS, ...prompts];
}

/** Runs a session command; undefined when `text` is not one (it is then a prompt). */
export async function runSessionCommand(
  text: string,
  { session, runtime }: { session: Session; runtime: Pick<Runtime, 'clearConversation'> },
  signal: AbortSignal,
): Promise<string | undefined> {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
  if (!match) return undefined;
  switch (match[1]) {
    case 'compress': {
      const result = await session.compress(signal, match[2] ? { instructions: match[2] } : {});
      return result.status === 'compressed'
        ? `Compressed the conversation: ${result.originalTokens} → ${result.newTokens} tokens.`
        : `Nothing compressed (${result.status}).`;
    }
    case 'clear':
      // As in the terminal: SessionEnd (`clear`), an empty history, SessionStart (`clear`).
      await runtime.clearConversation(session, signal);
      return 'Cleared the conversation.';
    case 'stats': {
      const usage = session.budgetUsage();
      return `Tokens: ${usage.tokens}. Tool calls: ${usage.toolCalls}. Cost: $${usage.costUsd.toFixed(4)}${
        usage.unpricedModels.length ? ` (unpriced: ${usage.unpricedModels.join(', ')})` : ''
      }.`;
    }
    default:
      return undefined;
  }
}
