import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isRecord } from '../utils/is-record';
import { ExtensionEnablement } from './enablement';
import { type Extension, INSTALL_METADATA_FILE, type InstallMetadata } from './extension';
import type { ExtensionLocations } from './locations';
import {
  CLAUDE_PLUGIN_MANIFEST,
  GEMINI_MANIFEST,
  parseClaudePluginManifest,
  parseGeminiManifest,
  parseJsonObject,
} from './manifest';
import { mapPluginHooks } from './plugin-hooks';
import { readSettingValues } from './settings-store';
import { substituteVariables } from './variables';

export interface ExtensionDiscovery {
  /** Every installed extension, enabled or not, kodo's first. */
  extensions: Extension[];
  warnings: string[];
}

/**
 * Every installed extension: kodo's folder, Gemini CLI's, then the Claude Code plugins its
 * `installed_plugins.json` lists. A name found twice keeps the first (kodo's own wins), with a
 * warning. `enabled` follows the enablement rules for `cwd` (and `enabledPlugins` for plugins).
 */
export function discoverExtensions(options: {
  locations: ExtensionLocations;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Trusted folders also give workspace-scope setting values (the workspace `.env`). */
  trusted?: boolean;
}): ExtensionDiscovery {
  const { locations, cwd } = options;
  const enablement = ExtensionEnablement.inDirs(locations.kodo, [locations.gemini]);
  const warnings: string[] = [];
  const extensions: Extension[] = [];
  const add = (extension: Extension | undefined) => {
    if (!extension) return;
    if (extensions.some((other) => other.name === extension.name)) {
      warnings.push(
        `Extension "${extension.name}" in ${extension.installDir} is ignored: an extension with that name was already loaded.`,
      );
      return;
    }
    extensions.push(extension);
  };
  for (const [root, origin] of [
    [locations.kodo, 'kodo'],
    [locations.gemini, 'gemini'],
  ] as const) {
    for (const dir of subdirs(root)) {
      const extension = loadExtensionDir(dir, {
        origin,
        cwd,
        env: options.env,
        warnings,
        ...(options.trusted ? { trusted: true } : {}),
      });
      if (extension) extension.enabled = enablement.isEnabled(extension.name, cwd);
      add(extension);
    }
  }
  for (const plugin of installedClaudePlugins(locations, warnings)) {
    const extension = loadExtensionDir(plugin.path, { origin: 'claude', cwd, env: options.env, warnings });
    if (extension) extension.enabled = plugin.enabled && enablement.isEnabled(extension.name, cwd);
    add(extension);
  }
  return { extensions, warnings };
}

interface LoadOptions {
  origin: Extension['origin'];
  cwd: string;
  env: NodeJS.ProcessEnv;
  warnings: string[];
  trusted?: boolean;
}

/**
 * One extension or plugin folder (or an install folder whose metadata links elsewhere);
 * undefined, with a warning, when it holds neither manifest or a broken one.
 */
export function loadExtensionDir(installDir: string, options: LoadOptions): Extension | undefined {
  const install = readInstallMetadata(installDir);
  const path = install?.type === 'link' ? resolve(install.source) : installDir;
  const geminiFile = join(path, GEMINI_MANIFEST);
  if (existsSync(geminiFile)) return loadGemini(path, installDir, install, options);
  const pluginFile = join(path, CLAUDE_PLUGIN_MANIFEST);
  if (existsSync(pluginFile)) return loadPlugin(path, installDir, install, options);
  if (install?.type === 'link')
    options.warnings.push(`Linked extension ${installDir} points to ${path}, which holds no manifest.`);
  return undefined;
}

function loadGemini(
  path: string,
  installDir: string,
  install: InstallMetadata | undefined,
  options: LoadOptions,
): Extension | undefined {
  const file = join(path, GEMINI_MANIFEST);
  const parsed = parseGeminiManifest(readFileSync(file, 'utf8'), file);
  if (!parsed.ok) {
    options.warnings.push(parsed.message);
    return undefined;
  }
  const manifest = parsed.value;
  const settings = readSettingValues(
    { name: manifest.name, installDir, cwd: options.cwd, env: options.env },
    manifest.settings,
    { trusted: options.trusted === true },
  );
  if (settings.missing.length > 0) {
    options.warnings.push(
      `Extension "${manifest.name}" has settings without a value: ${settings.missing.map((setting) => `${setting.name} (${setting.envVar})`).join(', ')}. Please run "kodo extensions config ${manifest.name} [setting-name]" to configure them.`,
    );
  }
  // Setting values first, then the environment, for `$VAR` in the manifest and hooks.
  const values = { ...options.env, ...settings.values };
  const context = { extensionPath: path, workspacePath: options.cwd, values };
  const contextFiles = (manifest.contextFileNames ?? ['GEMINI.md'])
    .map((name) => resolve(path, name))
    .filter((candidate) => {
      if (!inside(path, candidate)) {
        options.warnings.push(
          `Extension "${manifest.name}": context file ${candidate} lies outside the extension and is ignored.`,
        );
        return false;
      }
      return existsSync(candidate);
    });
  const hooksFile = join(path, 'hooks', 'hooks.json');
  return {
    name: manifest.name,
    version: manifest.version,
    ...(manifest.description ? { description: manifest.description } : {}),
    kind: 'gemini',
    path,
    installDir,
    origin: options.origin,
    ...(install ? { install } : {}),
    enabled: true,
    mcpServers: withSettingEnv(substituteVariables(manifest.mcpServers, context), settings.values),
    contextFiles,
    excludeTools: manifest.excludeTools,
    commandDirs: existingDirs([join(path, 'commands')]),
    skillDirs: existingDirs([join(path, 'skills')]),
    agentDirs: existingDirs([join(path, 'agents')]),
    ...hooksWithEnv(hooksFrom(hooksFile, context, options.warnings, { plugin: false }), settings.values),
    ...(existsSync(join(path, 'policies')) ? { policiesDir: join(path, 'policies') } : {}),
    settings: manifest.settings,
  };
}

function loadPlugin(
  path: string,
  installDir: string,
  install: InstallMetadata | undefined,
  options: LoadOptions,
): Extension | undefined {
  const file = join(path, CLAUDE_PLUGIN_MANIFEST);
  const parsed = parseClaudePluginManifest(readFileSync(file, 'utf8'), file);
  if (!parsed.ok) {
    options.warnings.push(parsed.message);
    return undefined;
  }
  const manifest = parsed.value;
  const context = { extensionPath: path, workspacePath: options.cwd, values: options.env };
  const within = (entries: string[], fallback: string) =>
    existingDirs(
      [join(path, fallback), ...entries.map((entry) => resolve(path, entry))].filter((dir) =>
        inside(path, dir),
      ),
    );
  let mcpServers: Record<string, Record<string, unknown>> = {};
  const mcp = manifest.mcpServers ?? '.mcp.json';
  const mcpObject = typeof mcp === 'string' ? readJson(resolve(path, mcp), options.warnings) : mcp;
  if (mcpObject) {
    const servers = isRecord(mcpObject.mcpServers) ? mcpObject.mcpServers : mcpObject;
    mcpServers = substituteVariables(
      Object.fromEntries(
        Object.entries(servers).filter((entry): entry is [string, Record<string, unknown>] =>
          isRecord(entry[1]),
        ),
      ),
      context,
    );
  }
  const hooks =
    typeof manifest.hooks === 'object'
      ? hooksObject(manifest.hooks, context, options.warnings, { plugin: true, where: file })
      : hooksFrom(resolve(path, manifest.hooks ?? 'hooks/hooks.json'), context, options.warnings, {
          plugin: true,
        });
  return {
    name: manifest.name,
    version: manifest.version ?? '0.0.0',
    ...(manifest.description ? { description: manifest.description } : {}),
    kind: 'claude-plugin',
    path,
    installDir,
    origin: options.origin,
    ...(install ? { install } : {}),
    enabled: true,
    mcpServers,
    contextFiles: [],
    excludeTools: [],
    commandDirs: within(manifest.commands, 'commands'),
    skillDirs: within(manifest.skills, 'skills'),
    agentDirs: within(manifest.agents, 'agents'),
    ...hooks,
    settings: [],
  };
}

function hooksFrom(
  file: string,
  context: Parameters<typeof substituteVariables>[1],
  warnings: string[],
  options: { plugin: boolean },
): { hooks?: Record<string, unknown> } {
  if (!existsSync(file)) return {};
  const data = readJson(file, warnings);
  return data ? hooksObject(data, context, warnings, { ...options, where: file }) : {};
}

function hooksObject(
  data: Record<string, unknown>,
  context: Parameters<typeof substituteVariables>[1],
  warnings: string[],
  options: { plugin: boolean; where: string },
): { hooks?: Record<string, unknown> } {
  const hooks = isRecord(data.hooks) ? data.hooks : undefined;
  if (!hooks) {
    warnings.push(`${options.where}: no "hooks" object; ignored.`);
    return {};
  }
  const substituted = substituteVariables(hooks, context);
  return { hooks: options.plugin ? mapPluginHooks(substituted) : substituted };
}

function installedClaudePlugins(
  locations: ExtensionLocations,
  warnings: string[],
): { path: string; enabled: boolean }[] {
  const file = join(locations.claudePlugins, 'installed_plugins.json');
  if (!existsSync(file)) return [];
  const data = readJson(file, warnings);
  const plugins = data && isRecord(data.plugins) ? data.plugins : {};
  const settings = existsSync(locations.claudeSettings)
    ? readJson(locations.claudeSettings, warnings)
    : undefined;
  const enabledPlugins = settings && isRecord(settings.enabledPlugins) ? settings.enabledPlugins : {};
  const out: { path: string; enabled: boolean }[] = [];
  for (const [id, installs] of Object.entries(plugins)) {
    if (!Array.isArray(installs)) continue;
    // The newest install of each plugin (the list is in install order).
    const latest = [...installs]
      .reverse()
      .find((entry) => isRecord(entry) && typeof entry.installPath === 'string') as
      | { installPath: string }
      | undefined;
    if (!latest) continue;
    out.push({ path: latest.installPath, enabled: enabledPlugins[id] !== false });
  }
  return out;
}

function readInstallMetadata(dir: string): InstallMetadata | undefined {
  const file = join(dir, INSTALL_METADATA_FILE);
  if (!existsSync(file)) return undefined;
  const data = readJson(file, []);
  if (!data || typeof data.source !== 'string') return undefined;
  const type =
    data.type === 'git' || data.type === 'link' || data.type === 'github-release' ? data.type : 'local';
  return { source: data.source, type, ...(typeof data.ref === 'string' ? { ref: data.ref } : {}) };
}

function readJson(file: string, warnings: string[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseJsonObject(text, file);
  if (!parsed.ok) {
    warnings.push(parsed.message);
    return undefined;
  }
  return parsed.value;
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

function subdirs(root: string): string[] {
  if (!existsSync(root)) return [];
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith('.'))
      .map((entry) => join(root, entry.name))
      .sort();
  } catch {
    return [];
  }
}

function existingDirs(dirs: string[]): string[] {
  return [...new Set(dirs)].filter((dir) => existsSync(dir));
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
