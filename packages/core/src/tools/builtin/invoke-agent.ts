import * as z from 'zod';
import { defineTool } from '../define-tool';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['agents'] as const;

const parameters = z.object({
  agent_name: z
    .string()
    .min(1)
    .describe('The name of the subagent, one of those listed under Available Sub-Agents.'),
  prompt: z
    .string()
    .describe(
      'The complete, self-contained task for the subagent: it sees nothing of this conversation, only this text.',
    ),
});

export const invokeAgentTool = defineTool({
  name: 'invoke_agent',
  uses: USES,
  displayName: 'Invoke Subagent',
  kind: 'agent',
  description:
    'Delegates a self-contained task to a subagent, which works in its own context with its own tools and returns its final answer. Use it for investigations or sub-tasks whose details you do not need in your own context. Several calls in one turn run in parallel; do not run several that change files at the same time.',
  parameters,
  describe: (params) => `Delegating to agent '${params.agent_name}'`,
  async execute(params, ctx, options) {
    if (!ctx.agents) {
      const message = 'No subagent can be started here: agents.maxDepth allows no deeper delegation.';
      return { llmContent: message, returnDisplay: message, error: { type: 'execution_failed', message } };
    }
    return ctx.agents.invoke(
      { name: params.agent_name, prompt: params.prompt },
      {
        signal: options.signal,
        onEvent: (event) => options.onAgentEvent?.({ agent: params.agent_name, event }),
      },
    );
  },
});
