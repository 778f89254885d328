import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathIdentity } from '../utils/fs-read';
import { type AgentAcknowledgements, agentFileHash, type PendingAgent } from './acknowledgements';
import { parseAgentFile } from './agent-file';
import { BUILTIN_AGENTS } from './builtin';
import type { AgentDefinition } from './definition';
import type { AgentDir } from './locations';

export interface AgentDiscovery {
  agents: AgentDefinition[];
  /** Files that are not agents, duplicate names, lenient-parsing notes: one line each. */
  warnings: string[];
  /** Project agents that are new or changed since acknowledged: not loaded. */
  unacknowledged: PendingAgent[];
}

export interface AgentDiscoveryOptions {
  builtins?: readonly AgentDefinition[];
  /**
   * When given, a project agent loads only if this file content was acknowledged for
   * `projectRoot`; the others are returned as `unacknowledged`.
   */
  acknowledgements?: { store: Pick<AgentAcknowledgements, 'isAcknowledged'>; projectRoot: string };
}

/**
 * Built-ins, then every `*.md` at the top of each folder (names starting with `_` are skipped).
 * The first registration of a name wins; a later one is ignored with a warning, so a project
 * file cannot replace a built-in.
 */
export async function discoverAgents(
  dirs: readonly AgentDir[],
  options: AgentDiscoveryOptions = {},
): Promise<AgentDiscovery> {
  const agents: AgentDefinition[] = [...(options.builtins ?? BUILTIN_AGENTS)];
  const warnings: string[] = [];
  const unacknowledged: PendingAgent[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    // Run from the home folder, the project's folders are the user's: read them once.
    const real = pathIdentity(dir.dir);
    if (seen.has(real)) continue;
    seen.add(real);
    for (const path of agentFiles(dir.dir)) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        warnings.push(`Agent loading error: Failed to load agent from ${path}: ${(error as Error).message}`);
        continue;
      }
      const result = await parseAgentFile(text, {
        scope: dir.scope,
        path,
        format: dir.format,
        ...(dir.namePrefix ? { namePrefix: dir.namePrefix } : {}),
        ...(dir.extensionName ? { extensionName: dir.extensionName } : {}),
      });
      warnings.push(...result.warnings);
      if (!result.definition) {
        warnings.push(`Agent loading error: Failed to load agent from ${path}: ${result.error}`);
        continue;
      }
      const name = result.definition.name;
      const ack = options.acknowledgements;
      if (ack && dir.scope === 'project') {
        const hash = agentFileHash(text);
        if (!ack.store.isAcknowledged(ack.projectRoot, name, hash)) {
          unacknowledged.push({ name, path, hash });
          continue;
        }
      }
      if (agents.some((agent) => agent.name === name)) {
        warnings.push(
          `Duplicate agent name '${name}' detected. The later definition will be ignored. Rename one of the agents to avoid this conflict.`,
        );
        continue;
      }
      agents.push(result.definition);
    }
  }
  return { agents, warnings, unacknowledged };
}

function agentFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter(
        (entry) =>
          (entry.isFile() || entry.isSymbolicLink()) &&
          entry.name.endsWith('.md') &&
          !entry.name.startsWith('_'),
      )
      .map((entry) => join(dir, entry.name))
      .sort();
  } catch {
    return [];
  }
}
