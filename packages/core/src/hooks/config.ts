import { isRecord } from '../utils/is-record';
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_EVENTS,
  type HookEventName,
  type HookRegistration,
  type HooksConfigSettings,
  isHookEventName,
  type SettingsScopeName,
} from './types';

/** The hook settings of one scope (user or project), as read from its settings file. */
export interface HookSettingsSource {
  scope: SettingsScopeName;
  hooks?: unknown;
  hooksConfig?: unknown;
}

export interface HookConfig {
  /** In settings order: user scope first, then project (arrays are concatenated). */
  registrations: HookRegistration[];
  /** Hook names or commands that must not run (union over the scopes). */
  disabled: ReadonlySet<string>;
  /** `hooksConfig.enabled` (later scope wins; default true). */
  enabled: boolean;
  /** Entries that were skipped, one line each, for the person. */
  problems: string[];
}

export interface HookConfigOptions {
  /**
   * Whether project-scope hooks may run. Hooks in a project's settings run code from the
   * repository, so an untrusted folder must not run them; the trust check (safety/trust.ts) decides.
   */
  allowProjectHooks: boolean;
}

/** Names other tools use for the same events, to point a misnamed hook at the right one. */
const FOREIGN_EVENT_NAMES: Record<string, HookEventName> = {
  PreToolUse: 'BeforeTool',
  PostToolUse: 'AfterTool',
  UserPromptSubmit: 'BeforeAgent',
  Stop: 'AfterAgent',
  PreCompact: 'PreCompress',
};

/** Reads `hooks` and `hooksConfig` of each scope; malformed entries are skipped and reported. */
export function hookConfigFromSources(sources: HookSettingsSource[], options: HookConfigOptions): HookConfig {
  const registrations: HookRegistration[] = [];
  const disabled = new Set<string>();
  const problems: string[] = [];
  let enabled = true;
  for (const source of sources) {
    const config = isRecord(source.hooksConfig) ? (source.hooksConfig as HooksConfigSettings) : {};
    if (typeof config.enabled === 'boolean') enabled = config.enabled;
    if (Array.isArray(config.disabled)) {
      for (const entry of config.disabled) if (typeof entry === 'string') disabled.add(entry);
    }
    if (source.scope === 'project' && !options.allowProjectHooks) continue;
    if (source.hooks === undefined) continue;
    if (!isRecord(source.hooks)) {
      problems.push(`Ignoring "hooks" in the ${source.scope} settings: it must be an object.`);
      continue;
    }
    for (const [event, definitions] of Object.entries(source.hooks)) {
      if (!isHookEventName(event)) {
        // `hooks.enabled` and similar keys from older Gemini CLI settings are not events.
        if (!Array.isArray(definitions)) continue;
        const hint = FOREIGN_EVENT_NAMES[event];
        problems.push(
          `Unknown hook event "${event}" in the ${source.scope} settings${hint ? ` (did you mean "${hint}"?)` : ''}; events are ${HOOK_EVENTS.join(', ')}.`,
        );
        continue;
      }
      readDefinitions(event, definitions, source.scope, registrations, problems);
    }
  }
  return { registrations, disabled, enabled, problems };
}

function readDefinitions(
  event: HookEventName,
  definitions: unknown,
  scope: SettingsScopeName,
  into: HookRegistration[],
  problems: string[],
): void {
  const where = `hooks.${event} in the ${scope} settings`;
  if (!Array.isArray(definitions)) {
    problems.push(`Ignoring ${where}: it must be an array of hook definitions.`);
    return;
  }
  definitions.forEach((definition, index) => {
    if (!isRecord(definition) || !Array.isArray(definition.hooks)) {
      problems.push(`Ignoring ${where}[${index}]: it needs a "hooks" array.`);
      return;
    }
    const matcher = typeof definition.matcher === 'string' ? definition.matcher : undefined;
    const sequential = definition.sequential === true;
    definition.hooks.forEach((hook, hookIndex) => {
      const label = `${where}[${index}].hooks[${hookIndex}]`;
      if (!isRecord(hook)) {
        problems.push(`Ignoring ${label}: it must be an object.`);
        return;
      }
      const type = hook.type ?? 'command';
      if (type !== 'command') {
        problems.push(`Ignoring ${label}: only "command" hooks are supported (got "${String(type)}").`);
        return;
      }
      if (typeof hook.command !== 'string' || hook.command.trim() === '') {
        problems.push(`Ignoring ${label}: "command" is missing.`);
        return;
      }
      const timeout = hook.timeout;
      into.push({
        event,
        scope,
        matcher,
        sequential,
        command: hook.command,
        name: typeof hook.name === 'string' && hook.name !== '' ? hook.name : undefined,
        timeoutMs:
          typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0
            ? timeout
            : DEFAULT_HOOK_TIMEOUT_MS,
        description: typeof hook.description === 'string' ? hook.description : undefined,
        env: stringRecord(hook.env),
      });
    });
  });
}

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === 'string') out[key] = entry;
    else if (typeof entry === 'number' || typeof entry === 'boolean') out[key] = String(entry);
  }
  return out;
}

/** How a hook is named in `hooksConfig.disabled`, lists and messages: its name, else its command. */
export function hookLabel(registration: Pick<HookRegistration, 'name' | 'command'>): string {
  return registration.name ?? registration.command;
}

export function isHookDisabled(
  registration: Pick<HookRegistration, 'name' | 'command'>,
  disabled: ReadonlySet<string>,
): boolean {
  return (
    (registration.name !== undefined && disabled.has(registration.name)) || disabled.has(registration.command)
  );
}
