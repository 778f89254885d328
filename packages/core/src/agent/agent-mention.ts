/**
 * A prompt that starts with `@<agent>` asks for that subagent: the prompt goes to the main agent
 * with a note telling it to delegate through `invoke_agent` (Gemini CLI's note names a tool
 * called after the agent instead, which does not exist; kodo names the real tool). Mentions of
 * names that are not agents (files, `@{path}`) are left alone.
 */
export function routeAgentMention(
  prompt: string,
  agents: readonly string[],
): { prompt: string; agent?: string } {
  const start = prompt.trimStart();
  if (!start.startsWith('@') || agents.length === 0) return { prompt };
  const match = /^@([\w-]+)(?=\s|$)/.exec(start);
  if (!match) return { prompt };
  const agent = agents.find((name) => name.toLowerCase() === match[1]!.toLowerCase());
  if (!agent) return { prompt };
  const note = `<system_note>The user asked for the '${agent}' agent: delegate this request to it with invoke_agent (agent_name "${agent}"), giving it everything it needs in the prompt.</system_note>`;
  return { prompt: `${prompt}\n\n${note}`, agent };
}
