import type { SubagentDefinition } from '../agent/subagents';
import type { Settings, SettingsScope } from '../config/settings';
import type { AgentDefinition, Extensibility } from '../extensions/index';
import { hasExtensibilityFiles } from '../extensions/presence';
import type { HookSettingsSource } from '../hooks/config';
import { loadExtensionsStartupModule } from '../on-demand';
import { RuntimeSetupError } from './setup-error';

/** What extensions, plugins, commands, skills and agents add to a session. */
export interface RuntimeExtensibility {
  loaded: Extensibility;
  /** Settings with the active extensions' MCP servers and excluded tools merged in. */
  settings: Settings;
  /** Context files of the active extensions (global tier). */
  contextFiles: string[];
  /** Hooks of the active extensions (they run like the user's, even in untrusted folders). */
  hookSources: HookSettingsSource[];
  /** Their `policies/` folders. */
  policyDirs: string[];
}

/**
 * Discovers what users bring (docs/extending.md) for one run. Undefined, with nothing imported,
 * when none of the folders kodo reads exists: the common case costs a few `existsSync` calls.
 */
export async function loadRuntimeExtensibility(options: {
  /** `-e`: only these extensions (`none`: none). */
  extensions?: string[] | undefined;
  settings: Settings;
  settingsScopes?: SettingsScope[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  trusted: boolean;
  /** `false`: custom slash commands are not read (see loadExtensibility). */
  commands?: boolean;
  onWarning?: (message: string) => void;
  /** The build's key for the parse cache of skill and agent files (a new build parses again). */
  buildKey?: string;
}): Promise<RuntimeExtensibility | undefined> {
  const { cwd, env, trusted } = options;
  if (!hasExtensibilityFiles({ cwd, env, trusted })) {
    if (options.extensions?.some((name) => name.toLowerCase() !== 'none')) {
      const name = options.extensions.find((candidate) => candidate.toLowerCase() !== 'none');
      throw new RuntimeSetupError(`Extension not found: ${name}`, 'input');
    }
    return undefined;
  }
  const skills = skillSettings(options.settings, options.settingsScopes);
  // The small startup module: discovery without the install and management code of extensions
  // (the files are read on every run; only parses of unchanged skill and agent files are cached).
  const module = await loadExtensionsStartupModule();
  let loaded: Extensibility;
  try {
    loaded = await module.loadExtensibility({
      cwd,
      env,
      trusted,
      ...(options.extensions ? { only: options.extensions } : {}),
      skillsEnabled: skills.enabled,
      disabledSkills: skills.disabled,
      ...(options.commands === false ? { commands: false } : {}),
      ...(options.buildKey ? { buildKey: options.buildKey } : {}),
    });
  } catch (error) {
    if (error instanceof module.ExtensionSelectionError) throw new RuntimeSetupError(error.message, 'input');
    throw error;
  }
  for (const warning of loaded.warnings) options.onWarning?.(warning);
  // Shown on the first run that finds them (or at install), then only kept for `kodo doctor`.
  for (const note of module.recordCompatNotes(env, loaded.notes)) options.onWarning?.(note);
  return {
    loaded,
    settings: mergeExtensionSettings(options.settings, loaded, options.onWarning),
    contextFiles: loaded.active.flatMap((extension) => extension.contextFiles),
    hookSources: loaded.active
      .filter((extension) => extension.hooks)
      .map((extension) => ({ scope: 'user' as const, hooks: extension.hooks })),
    policyDirs: loaded.active.flatMap((extension) => (extension.policiesDir ? [extension.policiesDir] : [])),
  };
}

/**
 * `skills.enabled` (default true) and `skills.disabled`, the union over every settings scope so a
 * skill turned off anywhere stays off. Read leniently: a malformed value counts as absent.
 */
export function skillSettings(
  settings: Settings,
  scopes: SettingsScope[] | undefined,
): { enabled: boolean; disabled: string[] } {
  const read = (value: Settings) => (value as { skills?: { enabled?: unknown; disabled?: unknown } }).skills;
  const all = scopes && scopes.length > 0 ? scopes.map((scope) => scope.settings) : [settings];
  const disabled = new Set<string>();
  for (const scoped of all) {
    const list = read(scoped)?.disabled;
    if (Array.isArray(list)) for (const name of list) if (typeof name === 'string') disabled.add(name);
  }
  return { enabled: read(settings)?.enabled !== false, disabled: [...disabled] };
}

/**
 * An extension's MCP server under a name the settings also use is merged, the settings' fields
 * winning; the same name in two extensions keeps the first. Excluded tools add up.
 */
function mergeExtensionSettings(
  settings: Settings,
  loaded: Extensibility,
  warn?: (message: string) => void,
): Settings {
  const servers: Record<string, unknown> = {};
  const owner = new Map<string, string>();
  for (const extension of loaded.active) {
    for (const [name, config] of Object.entries(extension.mcpServers)) {
      if (owner.has(name)) {
        warn?.(
          `Skipping MCP config for server with name "${name}" from extension "${extension.name}" as it already exists.`,
        );
        continue;
      }
      owner.set(name, extension.name);
      servers[name] = config;
    }
  }
  const exclude = loaded.active.flatMap((extension) => extension.excludeTools);
  if (owner.size === 0 && exclude.length === 0) return settings;
  const configured = settings.mcpServers ?? {};
  const mcpServers: Record<string, unknown> = { ...servers };
  for (const [name, entry] of Object.entries(configured)) {
    const fromExtension = servers[name];
    mcpServers[name] =
      fromExtension && typeof fromExtension === 'object' && entry && typeof entry === 'object'
        ? { ...fromExtension, ...entry }
        : entry;
  }
  const existingExclude = Array.isArray(settings.tools?.exclude) ? settings.tools.exclude : [];
  return {
    ...settings,
    mcpServers: mcpServers as Settings['mcpServers'],
    ...(exclude.length > 0
      ? { tools: { ...settings.tools, exclude: [...new Set([...existingExclude, ...exclude])] } }
      : {}),
  };
}

/**
 * The agent files found (not the built-ins, which the session has) as `invoke_agent`'s
 * definitions: tools minus `disallowedTools`, the file's limits, its path as the source.
 */
export function subagentsFrom(agents: readonly AgentDefinition[]): SubagentDefinition[] {
  return agents
    .filter((agent) => agent.source.scope !== 'builtin')
    .map((agent) => {
      const denied = new Set(agent.disallowedTools ?? []);
      return {
        name: agent.name,
        description: agent.description,
        systemPrompt: agent.systemPrompt,
        ...(agent.tools ? { tools: agent.tools.filter((tool) => !denied.has(tool)) } : {}),
        ...(agent.model ? { model: agent.model } : {}),
        ...(agent.effort ? { effort: agent.effort } : {}),
        maxTurns: agent.limits.maxTurns,
        timeoutMs: agent.limits.timeoutMinutes * 60_000,
        source: agent.source.path ?? 'built-in',
      };
    });
}
