import { relative } from 'node:path';
import { loadExtensionsModule } from '@kodo/core/engine';
import { heldBackLine, settingsForFolder } from '../trust-gate';
import { asksForHelp } from './asks-for-help';

export interface AgentsCommandContext {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = `Usage: kodo agents <command>

  list                        The project's agent files and whether each is acknowledged
  acknowledge [<name>...]     Acknowledge the project's new or changed agent files (all, or those named)
`;

/**
 * `kodo agents …` (alias `agent`): a project's own agent files (`.kodo|.claude|.gemini/agents`)
 * load only once acknowledged, and again after each edit (docs/extending.md). This is the way to
 * acknowledge them without the interactive UI, e.g. in CI after reviewing the checkout.
 */
export async function runAgentsCommand(context: AgentsCommandContext): Promise<number> {
  if (asksForHelp(context.args)) {
    context.stdout.write(USAGE);
    return 0;
  }
  const [sub, ...names] = context.args;
  const out = (text: string) => context.stdout.write(`${text}\n`);
  const place = { cwd: context.cwd, env: context.env };
  const module = await loadExtensionsModule();
  const status = await module.projectAgentStatus(place);
  for (const warning of status.warnings) context.stderr.write(`[WARNING] ${warning}\n`);
  const where = (path: string) => relative(context.cwd, path) || path;
  const trust = settingsForFolder(place).status;
  const trustNote =
    trust.state === 'trusted'
      ? undefined
      : trust.state === 'changed'
        ? heldBackLine('agents', trust)
        : 'This folder is not trusted: its agents do not load until it is (see kodo --help, --skip-trust).';
  switch (sub) {
    case 'list': {
      if (status.acknowledged.length === 0 && status.pending.length === 0) {
        out('No project agent files.');
        return 0;
      }
      for (const agent of status.acknowledged) out(`✓ ${agent.name} (${where(agent.source.path ?? '')})`);
      for (const agent of status.pending)
        out(`? ${agent.name} (${where(agent.path)}): new or changed, not loaded`);
      if (trustNote) out(trustNote);
      return 0;
    }
    case 'acknowledge':
    case 'ack': {
      const isPending = (name: string) => status.pending.some((agent) => agent.name === name);
      const isKnown = (name: string) => status.acknowledged.some((agent) => agent.name === name);
      const missing = names.filter((name) => !isPending(name) && !isKnown(name));
      if (missing.length > 0) {
        context.stderr.write(`No project agent named ${missing.join(', ')}.\n`);
        return 1;
      }
      const chosen =
        names.length === 0 ? status.pending : status.pending.filter((agent) => names.includes(agent.name));
      if (chosen.length === 0) {
        out('Every project agent is already acknowledged.');
        return 0;
      }
      module.acknowledgeProjectAgents(place, chosen);
      for (const agent of chosen) out(`Acknowledged ${agent.name} (${where(agent.path)}).`);
      if (trustNote) out(trustNote);
      return 0;
    }
    default:
      context.stderr.write(`${USAGE}${sub ? `\nUnknown command: ${sub}\n` : ''}`);
      return sub ? 1 : 0;
  }
}
