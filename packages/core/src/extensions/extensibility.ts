import type { PendingAgent } from '../agents/acknowledgements';
import type { AgentDefinition } from '../agents/definition';
import type { CustomCommand } from '../commands/definition';
import type { SkillDefinition } from '../skills/definition';
import { enabledSkills } from '../skills/enabled';
import type { Extension, ExtensionFiles } from './extension';
import { resolveExtension } from './resolve';

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
   * Names the build that discovers, and turns on the one discovery cache (parsed-file-cache.ts,
   * in `<kodo home>/cache`): this build's parses of skill and agent files, by their bytes.
   * Absent (runs from source, tests): nothing is cached.
   */
  buildKey?: string;
  /** Milliseconds since the epoch (tests move it past the caches' racy window, RACY_WINDOW_NS). */
  clock?: () => number;
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
  /** What kodo cannot give a plugin (compat-notes.ts): shown once, then kept for `kodo doctor`. */
  notes: string[];
}

/** A bad `-e` name: the run stops (exit 42), as in Gemini CLI. */
export class ExtensionSelectionError extends Error {
  override readonly name = 'ExtensionSelectionError';
}

/**
 * What discovery found in the files, before this run's values: everything in Extensibility that
 * depends only on the files read and on the options. Never cached: it is configuration.
 */
export interface DiscoveredFiles {
  /** `-e` applied. */
  extensions: ExtensionFiles[];
  commands: CustomCommand[];
  skills: SkillDefinition[];
  agents: AgentDefinition[];
  unacknowledgedAgents: PendingAgent[];
  warnings: string[];
  notes: string[];
}

/**
 * Extensibility from what the files say: each extension resolved against this run (its
 * settings' values, variables; see resolveExtension) and the disabled skills left out.
 */
export function finishExtensibility(found: DiscoveredFiles, options: ExtensibilityOptions): Extensibility {
  const warnings = [...found.warnings];
  const place = { cwd: options.cwd, env: options.env, trusted: options.trusted };
  const extensions = found.extensions.map((files) => resolveExtension(files, place, warnings));
  return {
    extensions,
    active: extensions.filter((extension) => extension.enabled),
    commands: found.commands,
    allSkills: found.skills,
    skills: enabledSkills(found.skills, options.disabledSkills ?? []),
    agents: found.agents,
    unacknowledgedAgents: found.unacknowledgedAgents,
    warnings,
    notes: found.notes,
  };
}
