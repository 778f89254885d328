import { AgentAcknowledgements, type PendingAgent } from './acknowledgements';
import type { AgentDefinition } from './definition';
import { discoverAgents } from './discover';
import { agentDirs } from './locations';

export interface ProjectAgentStatus {
  /** New or changed since acknowledged: not loaded until acknowledged. */
  pending: PendingAgent[];
  acknowledged: AgentDefinition[];
  warnings: string[];
}

/** The project's own agent files (`<project>/.kodo|.claude|.gemini/agents`) and whether each is acknowledged. */
export async function projectAgentStatus(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<ProjectAgentStatus> {
  const dirs = agentDirs({ ...options, trusted: true }).filter((dir) => dir.scope === 'project');
  const found = await discoverAgents(dirs, {
    builtins: [],
    acknowledgements: { store: new AgentAcknowledgements(options.env), projectRoot: options.cwd },
  });
  return { pending: found.unacknowledged, acknowledged: found.agents, warnings: found.warnings };
}

/** Records the files as acknowledged for this project (they load from now on, until edited). */
export function acknowledgeProjectAgents(
  options: { cwd: string; env: NodeJS.ProcessEnv },
  agents: readonly PendingAgent[],
): void {
  if (agents.length > 0) new AgentAcknowledgements(options.env).acknowledge(options.cwd, agents);
}
