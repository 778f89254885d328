import { join } from 'node:path';
import { AgentAcknowledgements, type PendingAgent } from '../agents/acknowledgements';
import type { AgentDefinition } from '../agents/definition';
import { discoverAgents } from '../agents/discover';
import { agentDirs } from '../agents/locations';
import type { CustomCommand } from '../commands/command-file';
import { discoverCommands } from '../commands/discover';
import { commandDirs } from '../commands/locations';
import { kodoHome } from '../config/paths';
import { discoverSkills, enabledSkills } from '../skills/discover';
import { skillDirs } from '../skills/locations';
import type { SkillDefinition } from '../skills/skill-file';
import { ParsedFileCache } from '../utils/parsed-file-cache';
import { discoverExtensions } from './discover';
import type { Extension } from './extension';
import { extensionLocations } from './locations';

export interface ExtensibilityOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Untrusted folders contribute no commands, skills or agents of their own. */
  trusted: boolean;
  /** `-e/--extensions`: only these (case-insensitive); `['none']` turns all off; absent = the enabled ones. */
  only?: readonly string[];
  /** `skills.enabled: false` turns skills off. */
  skillsEnabled?: boolean;
  /** `skills.disabled`, the union over the settings scopes. */
  disabledSkills?: readonly string[];
  /** Built-in slash command names, which keep their names on a clash. */
  reservedCommands?: readonly string[];
  /**
   * `false` leaves custom commands out (none are read or parsed): a headless prompt that does not
   * start with `/` never runs one. Default true.
   */
  commands?: boolean;
  /**
   * Names the build that parses: skill and agent files it parsed in earlier runs, unchanged
   * since, are taken from `<kodo home>/cache/parsed-files.json` instead of being read again.
   * Absent (runs from source): no cache.
   */
  parseCacheKey?: string;
}

export interface Extensibility {
  /** Every installed extension, with `enabled` as it applies to this run. */
  extensions: Extension[];
  /** The enabled ones. */
  active: Extension[];
  commands: CustomCommand[];
  /** Every skill found (disabled ones included, for `/skills list`). */
  allSkills: SkillDefinition[];
  /** The skills the model is offered. */
  skills: SkillDefinition[];
  /** Built-ins first, then the files, first registration of a name winning. */
  agents: AgentDefinition[];
  /** Project agents held back: new or changed since the person acknowledged them. */
  unacknowledgedAgents: PendingAgent[];
  warnings: string[];
}

/** A bad `-e` name: the run stops (exit 42), as in Gemini CLI. */
export class ExtensionSelectionError extends Error {
  override readonly name = 'ExtensionSelectionError';
}

/**
 * Everything users bring to a run besides settings: extensions and plugins, then the commands,
 * skills and agents of the user, the project (trusted folders only) and the active extensions.
 */
export async function loadExtensibility(options: ExtensibilityOptions): Promise<Extensibility> {
  const found = discoverExtensions({
    locations: extensionLocations(options.env),
    cwd: options.cwd,
    env: options.env,
    trusted: options.trusted,
  });
  const warnings = [...found.warnings];
  const extensions = applySelection(found.extensions, options.only);
  const active = extensions.filter((extension) => extension.enabled);
  const componentDirs = (pick: (extension: Extension) => string[]) =>
    active.flatMap((extension) =>
      pick(extension).map((dir) => ({
        name: extension.name,
        dir,
        root: extension.path,
        kind: extension.kind,
      })),
    );
  const place = { cwd: options.cwd, env: options.env, trusted: options.trusted };
  const cache = options.parseCacheKey
    ? ParsedFileCache.open(parsedFilesCache(options.env), options.parseCacheKey)
    : ParsedFileCache.disabled();
  const [commands, skills, agents] = await Promise.all([
    options.commands === false
      ? Promise.resolve({ commands: [], warnings: [] })
      : discoverCommands(
          commandDirs({ ...place, extensions: componentDirs((extension) => extension.commandDirs) }),
          {
            ...(options.reservedCommands ? { reserved: options.reservedCommands } : {}),
          },
        ),
    options.skillsEnabled === false
      ? Promise.resolve({ skills: [], warnings: [] })
      : discoverSkills(
          skillDirs({ ...place, extensions: componentDirs((extension) => extension.skillDirs) }),
          { cache },
        ),
    discoverAgents(agentDirs({ ...place, extensions: componentDirs((extension) => extension.agentDirs) }), {
      acknowledgements: { store: new AgentAcknowledgements(options.env), projectRoot: options.cwd },
      cache,
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
    active,
    commands: commands.commands,
    allSkills: skills.skills,
    skills: enabledSkills(skills.skills, options.disabledSkills ?? []),
    agents: agents.agents,
    unacknowledgedAgents: agents.unacknowledged,
    warnings,
  };
}

/** Where loadExtensibility keeps its parses of skill and agent files. */
export function parsedFilesCache(env: NodeJS.ProcessEnv): string {
  return join(kodoHome(env), 'cache', 'parsed-files.json');
}

function applySelection(extensions: Extension[], only: readonly string[] | undefined): Extension[] {
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
