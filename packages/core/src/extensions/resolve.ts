import { isRecord } from '../utils/is-record';
import type { Extension, ExtensionFiles } from './extension';
import { mapPluginHooks } from './plugin-hooks';
import { readSettingValues } from './settings-store';
import { substituteVariables } from './variables';

/** Where a run happens: what an extension's variables and settings resolve against. */
export interface ResolvePlace {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Trusted folders also give workspace-scope setting values (the workspace `.env`). */
  trusted: boolean;
}

/**
 * The extension this run uses: its settings' values read (the extension's `.env`, kodo's
 * secrets file, the workspace `.env`), then `${extensionPath}`, `$VAR`… substituted in its MCP
 * servers and hooks, and the values handed to the processes they start. Done on every run, so
 * these values never rest anywhere but where the person put them.
 */
export function resolveExtension(files: ExtensionFiles, place: ResolvePlace, warnings: string[]): Extension {
  const { rawMcpServers, rawHooks, ...rest } = files;
  if (files.kind === 'claude-plugin') {
    const context = { extensionPath: files.path, workspacePath: place.cwd, values: place.env };
    return {
      ...rest,
      mcpServers: substituteVariables(rawMcpServers, context),
      ...(rawHooks ? { hooks: mapPluginHooks(substituteVariables(rawHooks, context)) } : {}),
    };
  }
  const settings = readSettingValues(
    { name: files.name, installDir: files.installDir, cwd: place.cwd, env: place.env },
    files.settings,
    { trusted: place.trusted },
  );
  if (settings.missing.length > 0) {
    warnings.push(
      `Extension "${files.name}" has settings without a value: ${settings.missing.map((setting) => `${setting.name} (${setting.envVar})`).join(', ')}. Please run "kodo extensions config ${files.name} [setting-name]" to configure them.`,
    );
  }
  // Setting values first, then the environment, for `$VAR` in the manifest and hooks.
  const values = { ...place.env, ...settings.values };
  const context = { extensionPath: files.path, workspacePath: place.cwd, values };
  return {
    ...rest,
    mcpServers: withSettingEnv(substituteVariables(rawMcpServers, context), settings.values),
    ...(rawHooks ? hooksWithEnv({ hooks: substituteVariables(rawHooks, context) }, settings.values) : {}),
  };
}

/**
 * An extension's setting values reach the processes it starts: each local MCP server gets them
 * in its environment (the server's own `env` entries win), as in Gemini CLI.
 */
function withSettingEnv(
  servers: Record<string, Record<string, unknown>>,
  values: Record<string, string>,
): Record<string, Record<string, unknown>> {
  if (Object.keys(values).length === 0) return servers;
  return Object.fromEntries(
    Object.entries(servers).map(([name, config]) => [
      name,
      typeof config.command === 'string'
        ? { ...config, env: { ...values, ...(isRecord(config.env) ? config.env : {}) } }
        : config,
    ]),
  );
}

/** …and each of its hook commands, likewise (the hook's own `env` wins). */
function hooksWithEnv(
  found: { hooks?: Record<string, unknown> },
  values: Record<string, string>,
): { hooks?: Record<string, unknown> } {
  if (!found.hooks || Object.keys(values).length === 0) return found;
  const withEnv = (hook: unknown) =>
    isRecord(hook) && hook.type !== 'prompt'
      ? { ...hook, env: { ...values, ...(isRecord(hook.env) ? hook.env : {}) } }
      : hook;
  const hooks = Object.fromEntries(
    Object.entries(found.hooks).map(([event, groups]) => [
      event,
      Array.isArray(groups)
        ? groups.map((group) =>
            isRecord(group) && Array.isArray(group.hooks)
              ? { ...group, hooks: group.hooks.map(withEnv) }
              : group,
          )
        : groups,
    ]),
  );
  return { hooks };
}
