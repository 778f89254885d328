import { join } from 'node:path';
import { type DiscoveryFs, nodeDiscoveryFs } from '../utils/discovery-fs';
import { pathIdentity } from '../utils/fs-read';
import { isRecord } from '../utils/is-record';
import { fileStamp, MAX_CACHED_TEXT, ParsedFileCache } from '../utils/parsed-file-cache';
import { type AgentAcknowledgements, agentFileHash, type PendingAgent } from './acknowledgements';
import { type AgentFileResult, parseAgentFile } from './agent-file';
import { BUILTIN_AGENTS } from './builtin';
import { type AgentDefinition, isAgentDefinition } from './definition';
import type { AgentDir } from './locations';

export interface AgentDiscovery {
  agents: AgentDefinition[];
  /** Files that are not agents, duplicate names, lenient-parsing notes: one line each. */
  warnings: string[];
  /** Project agents that are new or changed since acknowledged: not loaded. */
  unacknowledged: PendingAgent[];
  /** What kodo cannot give plugin agents (AgentFileResult.notes): reported once, not each run. */
  notes: string[];
}

export interface AgentDiscoveryOptions {
  builtins?: readonly AgentDefinition[];
  /**
   * When given, a project agent loads only if this file content was acknowledged for
   * `projectRoot`; the others are returned as `unacknowledged`.
   */
  acknowledgements?: { store: Pick<AgentAcknowledgements, 'isAcknowledged'>; projectRoot: string };
  /** Parses of earlier runs: a file it knows in its current version is not read. */
  cache?: ParsedFileCache;
  fs?: DiscoveryFs;
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
  const notes: string[] = [];
  const seen = new Set<string>();
  const cache = options.cache ?? ParsedFileCache.disabled();
  const fs = options.fs ?? nodeDiscoveryFs;
  for (const dir of dirs) {
    // Run from the home folder, the project's folders are the user's: read them once.
    const real = pathIdentity(dir.dir, fs);
    if (seen.has(real)) continue;
    seen.add(real);
    for (const path of agentFiles(dir.dir, fs)) {
      const read = await readAgent(path, dir, { cache, fs });
      if ('failure' in read) {
        warnings.push(`Agent loading error: Failed to load agent from ${path}: ${read.failure}`);
        continue;
      }
      const { result, hash } = read;
      warnings.push(...result.warnings);
      notes.push(...(result.notes ?? []));
      if (!result.definition) {
        warnings.push(`Agent loading error: Failed to load agent from ${path}: ${result.error}`);
        continue;
      }
      const name = result.definition.name;
      const ack = options.acknowledgements;
      if (ack && dir.scope === 'project') {
        // readAgent always hashes project files; a missing hash fails closed.
        if (hash === null || !ack.store.isAcknowledged(ack.projectRoot, name, hash)) {
          unacknowledged.push({ name, path, hash: hash ?? '' });
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
  return { agents, warnings, unacknowledged, notes };
}

interface AgentRead {
  result: AgentFileResult;
  /** The content hash project agents are acknowledged by; null for other scopes. */
  hash: string | null;
}

/** One agent file parsed, from the cache when it is current; `failure` when it cannot be read. */
async function readAgent(
  path: string,
  dir: AgentDir,
  { cache, fs }: { cache: ParsedFileCache; fs: DiscoveryFs },
): Promise<AgentRead | { failure: string }> {
  const source = {
    scope: dir.scope,
    path,
    format: dir.format,
    ...(dir.namePrefix ? { namePrefix: dir.namePrefix } : {}),
    ...(dir.extensionName ? { extensionName: dir.extensionName } : {}),
  };
  // The parse depends on the text and on the folder's tier, format and naming.
  const name = `agent\0${dir.scope}\0${dir.format}\0${dir.namePrefix ?? ''}\0${dir.extensionName ?? ''}\0${path}`;
  const stamp = fileStamp(path, fs);
  let text: string;
  try {
    text = fs.readText(path);
  } catch (error) {
    return { failure: (error as Error).message };
  }
  const cached = stamp ? cache.get(name, stamp, text) : undefined;
  if (isAgentRead(cached) && (cached.hash !== null) === (dir.scope === 'project')) return cached;
  const read: AgentRead = {
    result: await parseAgentFile(text, source),
    hash: dir.scope === 'project' ? agentFileHash(text) : null,
  };
  if (stamp && text.length <= MAX_CACHED_TEXT) cache.set(name, stamp, text, read);
  return read;
}

/** What readAgent stores; anything else (a hand-edited cache) is parsed again. */
function isAgentRead(value: unknown): value is AgentRead {
  if (!isRecord(value) || !isRecord(value.result)) return false;
  const { result, hash } = value;
  if (hash !== null && typeof hash !== 'string') return false;
  if (!Array.isArray(result.warnings) || !result.warnings.every((line) => typeof line === 'string'))
    return false;
  if (
    result.notes !== undefined &&
    !(Array.isArray(result.notes) && result.notes.every((line) => typeof line === 'string'))
  )
    return false;
  const definition = result.definition;
  if (definition === undefined) return typeof result.error === 'string';
  return isAgentDefinition(definition);
}

function agentFiles(dir: string, fs: DiscoveryFs): string[] {
  if (!fs.existsSync(dir)) return [];
  try {
    return fs
      .list(dir)
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
