import { isAbsolute, join, relative, resolve } from 'node:path';
import { type DiscoveryFs, nodeDiscoveryFs } from '../utils/discovery-fs';
import { isRecord } from '../utils/is-record';
import { ExtensionEnablement } from './enablement';
import {
  type Extension,
  type ExtensionFiles,
  INSTALL_METADATA_FILE,
  type InstallMetadata,
} from './extension';
import type { ExtensionLocations } from './locations';
import {
  CLAUDE_PLUGIN_MANIFEST,
  GEMINI_MANIFEST,
  parseClaudePluginManifest,
  parseGeminiManifest,
  parseJsonObject,
} from './manifest';
import { resolveExtension } from './resolve';

export interface ExtensionDiscovery {
  /** Every installed extension, enabled or not, kodo's first. */
  extensions: Extension[];
  warnings: string[];
}

export interface ExtensionFilesDiscovery {
  extensions: ExtensionFiles[];
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
  const found = discoverExtensionFiles(options);
  const warnings = [...found.warnings];
  const place = { cwd: options.cwd, env: options.env, trusted: options.trusted === true };
  return {
    extensions: found.extensions.map((files) => resolveExtension(files, place, warnings)),
    warnings,
  };
}

/**
 * discoverExtensions' first half: what the files say, which depends on nothing but them and
 * `cwd` (enablement), all read through `fs`. resolveExtension adds this run's values.
 */
export function discoverExtensionFiles(options: {
  locations: ExtensionLocations;
  cwd: string;
  fs?: DiscoveryFs;
}): ExtensionFilesDiscovery {
  const { locations, cwd } = options;
  const fs = options.fs ?? nodeDiscoveryFs;
  const enablement = ExtensionEnablement.inDirs(locations.kodo, [locations.gemini], fs);
  const warnings: string[] = [];
  const extensions: ExtensionFiles[] = [];
  const add = (extension: ExtensionFiles | undefined) => {
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
    for (const dir of subdirs(root, fs)) {
      const extension = readExtensionDir(dir, { origin, warnings, fs });
      if (extension) extension.enabled = enablement.isEnabled(extension.name, cwd);
      add(extension);
    }
  }
  for (const plugin of installedClaudePlugins(locations, warnings, fs)) {
    const extension = readExtensionDir(plugin.path, { origin: 'claude', warnings, fs });
    if (extension) extension.enabled = plugin.enabled && enablement.isEnabled(extension.name, cwd);
    add(extension);
  }
  return { extensions, warnings };
}

/**
 * One extension or plugin folder (or an install folder whose metadata links elsewhere) with
 * this run's values; undefined, with a warning, when it holds neither manifest or a broken one.
 */
export function loadExtensionDir(
  installDir: string,
  options: {
    origin: Extension['origin'];
    cwd: string;
    env: NodeJS.ProcessEnv;
    warnings: string[];
    trusted?: boolean;
  },
): Extension | undefined {
  const files = readExtensionDir(installDir, { origin: options.origin, warnings: options.warnings });
  if (!files) return undefined;
  const place = { cwd: options.cwd, env: options.env, trusted: options.trusted === true };
  return resolveExtension(files, place, options.warnings);
}

interface ReadOptions {
  origin: Extension['origin'];
  warnings: string[];
  fs?: DiscoveryFs;
}

/** loadExtensionDir's first half: what the folder's files say. */
export function readExtensionDir(installDir: string, options: ReadOptions): ExtensionFiles | undefined {
  const fs = options.fs ?? nodeDiscoveryFs;
  const install = readInstallMetadata(installDir, fs);
  const path = install?.type === 'link' ? resolve(install.source) : installDir;
  const geminiFile = join(path, GEMINI_MANIFEST);
  if (fs.existsSync(geminiFile)) return readGemini(path, installDir, install, { ...options, fs });
  const pluginFile = join(path, CLAUDE_PLUGIN_MANIFEST);
  if (fs.existsSync(pluginFile)) return readPlugin(path, installDir, install, { ...options, fs });
  if (install?.type === 'link')
    options.warnings.push(`Linked extension ${installDir} points to ${path}, which holds no manifest.`);
  return undefined;
}

function readGemini(
  path: string,
  installDir: string,
  install: InstallMetadata | undefined,
  options: ReadOptions & { fs: DiscoveryFs },
): ExtensionFiles | undefined {
  const { fs } = options;
  const file = join(path, GEMINI_MANIFEST);
  const parsed = parseGeminiManifest(fs.readText(file), file);
  if (!parsed.ok) {
    options.warnings.push(parsed.message);
    return undefined;
  }
  const manifest = parsed.value;
  const contextFiles = (manifest.contextFileNames ?? ['GEMINI.md'])
    .map((name) => resolve(path, name))
    .filter((candidate) => {
      if (!inside(path, candidate)) {
        options.warnings.push(
          `Extension "${manifest.name}": context file ${candidate} lies outside the extension and is ignored.`,
        );
        return false;
      }
      return fs.existsSync(candidate);
    });
  const hooks = readHooks(join(path, 'hooks', 'hooks.json'), options.warnings, fs);
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
    rawMcpServers: manifest.mcpServers,
    contextFiles,
    excludeTools: manifest.excludeTools,
    commandDirs: existingDirs([join(path, 'commands')], fs),
    skillDirs: existingDirs([join(path, 'skills')], fs),
    agentDirs: existingDirs([join(path, 'agents')], fs),
    ...(hooks ? { rawHooks: hooks } : {}),
    ...(fs.existsSync(join(path, 'policies')) ? { policiesDir: join(path, 'policies') } : {}),
    settings: manifest.settings,
    ...(manifest.themes && manifest.themes.length > 0 ? { themes: manifest.themes } : {}),
  };
}

function readPlugin(
  path: string,
  installDir: string,
  install: InstallMetadata | undefined,
  options: ReadOptions & { fs: DiscoveryFs },
): ExtensionFiles | undefined {
  const { fs } = options;
  const file = join(path, CLAUDE_PLUGIN_MANIFEST);
  const parsed = parseClaudePluginManifest(fs.readText(file), file);
  if (!parsed.ok) {
    options.warnings.push(parsed.message);
    return undefined;
  }
  const manifest = parsed.value;
  const within = (entries: string[], fallback: string) =>
    existingDirs(
      [join(path, fallback), ...entries.map((entry) => resolve(path, entry))].filter((dir) =>
        inside(path, dir),
      ),
      fs,
    );
  let mcpServers: Record<string, Record<string, unknown>> = {};
  const mcp = manifest.mcpServers ?? '.mcp.json';
  const mcpObject = typeof mcp === 'string' ? readJson(resolve(path, mcp), options.warnings, fs) : mcp;
  if (mcpObject) {
    const servers = isRecord(mcpObject.mcpServers) ? mcpObject.mcpServers : mcpObject;
    mcpServers = Object.fromEntries(
      Object.entries(servers).filter((entry): entry is [string, Record<string, unknown>] =>
        isRecord(entry[1]),
      ),
    );
  }
  const hooks =
    typeof manifest.hooks === 'object'
      ? hooksObject(manifest.hooks, options.warnings, file)
      : readHooks(resolve(path, manifest.hooks ?? 'hooks/hooks.json'), options.warnings, fs);
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
    rawMcpServers: mcpServers,
    contextFiles: [],
    excludeTools: [],
    commandDirs: within(manifest.commands, 'commands'),
    skillDirs: within(manifest.skills, 'skills'),
    agentDirs: within(manifest.agents, 'agents'),
    ...(hooks ? { rawHooks: hooks } : {}),
    settings: [],
  };
}

/** The `hooks` object of a hooks file, as written; undefined when there is no file. */
function readHooks(file: string, warnings: string[], fs: DiscoveryFs): Record<string, unknown> | undefined {
  if (!fs.existsSync(file)) return undefined;
  const data = readJson(file, warnings, fs);
  return data ? hooksObject(data, warnings, file) : undefined;
}

function hooksObject(
  data: Record<string, unknown>,
  warnings: string[],
  where: string,
): Record<string, unknown> | undefined {
  if (isRecord(data.hooks)) return data.hooks;
  warnings.push(`${where}: no "hooks" object; ignored.`);
  return undefined;
}

function installedClaudePlugins(
  locations: ExtensionLocations,
  warnings: string[],
  fs: DiscoveryFs,
): { path: string; enabled: boolean }[] {
  const file = join(locations.claudePlugins, 'installed_plugins.json');
  if (!fs.existsSync(file)) return [];
  const data = readJson(file, warnings, fs);
  const plugins = data && isRecord(data.plugins) ? data.plugins : {};
  const settings = fs.existsSync(locations.claudeSettings)
    ? readJson(locations.claudeSettings, warnings, fs)
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

function readInstallMetadata(dir: string, fs: DiscoveryFs): InstallMetadata | undefined {
  const file = join(dir, INSTALL_METADATA_FILE);
  if (!fs.existsSync(file)) return undefined;
  const data = readJson(file, [], fs);
  if (!data || typeof data.source !== 'string') return undefined;
  const type =
    data.type === 'git' || data.type === 'link' || data.type === 'github-release' ? data.type : 'local';
  return { source: data.source, type, ...(typeof data.ref === 'string' ? { ref: data.ref } : {}) };
}

function readJson(file: string, warnings: string[], fs: DiscoveryFs): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = fs.readText(file);
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

function subdirs(root: string, fs: DiscoveryFs): string[] {
  if (!fs.existsSync(root)) return [];
  try {
    return fs
      .list(root)
      .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith('.'))
      .map((entry) => join(root, entry.name))
      .sort();
  } catch {
    return [];
  }
}

function existingDirs(dirs: string[], fs: DiscoveryFs): string[] {
  return [...new Set(dirs)].filter((dir) => fs.existsSync(dir));
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
