import { join } from 'node:path';
import { AgentAcknowledgements } from '../agents/acknowledgements';
import { discoverAgents } from '../agents/discover';
import { agentDirs } from '../agents/locations';
import { discoverCommands } from '../commands/discover';
import { commandDirs } from '../commands/locations';
import { HOME_VARIABLES, kodoHome } from '../config/paths';
import { discoverSkills } from '../skills/discover';
import { skillDirs } from '../skills/locations';
import { type DiscoveryFs, nodeDiscoveryFs } from '../utils/discovery-fs';
import { ParsedFileCache } from '../utils/parsed-file-cache';
import { discoverExtensionFiles } from './discover';
import {
  type DiscoveredFiles,
  type Extensibility,
  type ExtensibilityOptions,
  ExtensionSelectionError,
  finishExtensibility,
} from './extensibility';
import type { ExtensionFiles } from './extension';
import { extensionLocations } from './locations';

/**
 * loadExtensibility (startup.ts): from the files, every one listed and read on every run; with a
 * build key, parses of skill and agent files whose bytes are unchanged come from the cache.
 */
export async function discoverExtensibility(options: ExtensibilityOptions): Promise<Extensibility> {
  return finishExtensibility(await discoverFiles(options, nodeDiscoveryFs), options);
}

/** The environment discovery gets: the home variables only, so nothing else can change it. */
function discoveryEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of HOME_VARIABLES) if (env[name] !== undefined) out[name] = env[name];
  return out;
}

/** What the files say, every read through `fs`; the environment only locates the homes. */
async function discoverFiles(options: ExtensibilityOptions, fs: DiscoveryFs): Promise<DiscoveredFiles> {
  const env = discoveryEnv(options.env);
  const found = discoverExtensionFiles({ locations: extensionLocations(env), cwd: options.cwd, fs });
  const warnings = [...found.warnings];
  const extensions = applySelection(found.extensions, options.only);
  const componentDirs = (pick: (extension: ExtensionFiles) => string[]) =>
    extensions
      .filter((extension) => extension.enabled)
      .flatMap((extension) =>
        pick(extension).map((dir) => ({
          name: extension.name,
          dir,
          root: extension.path,
          kind: extension.kind,
        })),
      );
  const place = { cwd: options.cwd, env, trusted: options.trusted };
  const cache = options.buildKey
    ? ParsedFileCache.open(
        parsedFilesCache(env),
        options.buildKey,
        options.clock ? { clock: options.clock } : {},
      )
    : ParsedFileCache.disabled();
  const [commands, skills, agents] = await Promise.all([
    options.commands === false
      ? Promise.resolve({ commands: [], warnings: [] })
      : discoverCommands(
          commandDirs({ ...place, extensions: componentDirs((extension) => extension.commandDirs) }),
          { ...(options.reservedCommands ? { reserved: options.reservedCommands } : {}), fs },
        ),
    options.skillsEnabled === false
      ? Promise.resolve({ skills: [], warnings: [] })
      : discoverSkills(
          skillDirs({ ...place, extensions: componentDirs((extension) => extension.skillDirs) }),
          { cache, fs },
        ),
    discoverAgents(agentDirs({ ...place, extensions: componentDirs((extension) => extension.agentDirs) }), {
      acknowledgements: { store: new AgentAcknowledgements(env, fs), projectRoot: options.cwd },
      cache,
      fs,
    }),
  ]);
  cache.save();
  warnings.push(...commands.warnings, ...skills.warnings, ...agents.warnings);
  for (const agent of agents.unacknowledged) {
    warnings.push(
      `Project agent "${agent.name}" (${agent.path}) is new or changed since it was acknowledged and is not loaded. Review it, then run "kodo agents acknowledge" (or start kodo interactively) to enable it.`,
    );
  }
  return {
    extensions,
    commands: commands.commands,
    skills: skills.skills,
    agents: agents.agents,
    unacknowledgedAgents: agents.unacknowledged,
    warnings,
    notes: agents.notes,
  };
}

/** Where loadExtensibility keeps its parses of skill and agent files. */
export function parsedFilesCache(env: NodeJS.ProcessEnv): string {
  return join(kodoHome(env), 'cache', 'parsed-files.json');
}

function applySelection(extensions: ExtensionFiles[], only: readonly string[] | undefined): ExtensionFiles[] {
  if (!only || only.length === 0) return extensions;
  const wanted = only.map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  if (wanted.length === 1 && wanted[0] === 'none')
    return extensions.map((extension) => ({ ...extension, enabled: false }));
  for (const name of wanted) {
    if (!extensions.some((extension) => extension.name.toLowerCase() === name)) {
      throw new ExtensionSelectionError(`Extension not found: ${name}`);
    }
  }
  return extensions.map((extension) => ({
    ...extension,
    enabled: wanted.includes(extension.name.toLowerCase()),
  }));
}
