import { isRecord } from '../utils/is-record';
/**
 * The manifests of the two bundle formats kodo reads: Gemini CLI's `gemini-extension.json` and
 * Claude Code's `.claude-plugin/plugin.json`. Both are read leniently: unknown keys are ignored,
 * and only what would make the bundle unusable (no name, a name that cannot be a folder) fails.
 */

export const GEMINI_MANIFEST = 'gemini-extension.json';
export const CLAUDE_PLUGIN_MANIFEST = '.claude-plugin/plugin.json';

/** A value the extension asks for at install (stored in its `.env`, given to it as `envVar`). */
export interface ExtensionSettingDecl {
  name: string;
  description: string;
  envVar: string;
  sensitive?: boolean;
}

export interface GeminiManifest {
  name: string;
  version: string;
  description?: string;
  mcpServers: Record<string, Record<string, unknown>>;
  contextFileNames?: string[];
  excludeTools: string[];
  settings: ExtensionSettingDecl[];
  /** Gemini CLI custom theme objects (the UI reads them; offered as `<theme> (<extension>)`). */
  themes?: Record<string, unknown>[];
}

export interface ClaudePluginManifest {
  name: string;
  version?: string;
  description?: string;
  /** Component paths (relative to the plugin root) in addition to the default folders. */
  commands: string[];
  agents: string[];
  skills: string[];
  /** A path to a hooks file, or the hooks object itself. */
  hooks?: string | Record<string, unknown>;
  /** A path to an MCP config file (default `.mcp.json`), or the servers themselves. */
  mcpServers?: string | Record<string, unknown>;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const NAME = /^[a-zA-Z0-9-]+$/;

export function parseGeminiManifest(text: string, file: string): Parsed<GeminiManifest> {
  const data = parseJsonObject(text, file);
  if (!data.ok) return data;
  const value = data.value;
  const name = value.name;
  if (typeof name !== 'string' || !NAME.test(name)) {
    return {
      ok: false,
      message: `Invalid extension name: "${String(name)}". Only letters (a-z, A-Z), numbers (0-9), and dashes (-) are allowed.`,
    };
  }
  if (typeof value.version !== 'string')
    return { ok: false, message: `Invalid configuration in ${file}: missing "version"` };
  const contextFileName = value.contextFileName;
  const contextFileNames =
    typeof contextFileName === 'string'
      ? [contextFileName]
      : Array.isArray(contextFileName)
        ? contextFileName.filter((entry): entry is string => typeof entry === 'string')
        : undefined;
  const mcpServers: Record<string, Record<string, unknown>> = {};
  if (isRecord(value.mcpServers)) {
    for (const [server, config] of Object.entries(value.mcpServers)) {
      if (!isRecord(config)) continue;
      // An extension cannot vouch for its own servers: `trust` is dropped.
      const { trust: _trust, ...rest } = config;
      mcpServers[server] = rest;
    }
  }
  return {
    ok: true,
    value: {
      name,
      version: value.version,
      ...(typeof value.description === 'string' ? { description: value.description } : {}),
      mcpServers,
      ...(contextFileNames ? { contextFileNames } : {}),
      excludeTools: strings(value.excludeTools),
      settings: Array.isArray(value.settings) ? value.settings.filter(isSettingDecl) : [],
      ...(Array.isArray(value.themes) ? { themes: value.themes.filter(isRecord) } : {}),
    },
  };
}

export function parseClaudePluginManifest(text: string, file: string): Parsed<ClaudePluginManifest> {
  const data = parseJsonObject(text, file);
  if (!data.ok) return data;
  const value = data.value;
  if (typeof value.name !== 'string' || !/^[a-zA-Z0-9_.-]+$/.test(value.name)) {
    return { ok: false, message: `Invalid plugin name in ${file}: "${String(value.name)}".` };
  }
  const paths = (entry: unknown) => (typeof entry === 'string' ? [entry] : strings(entry));
  return {
    ok: true,
    value: {
      name: value.name,
      ...(typeof value.version === 'string' ? { version: value.version } : {}),
      ...(typeof value.description === 'string' ? { description: value.description } : {}),
      commands: paths(value.commands),
      agents: paths(value.agents),
      skills: paths(value.skills),
      ...(typeof value.hooks === 'string' || isRecord(value.hooks) ? { hooks: value.hooks } : {}),
      ...(typeof value.mcpServers === 'string' || isRecord(value.mcpServers)
        ? { mcpServers: value.mcpServers }
        : {}),
    },
  };
}

export function parseJsonObject(text: string, file: string): Parsed<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Invalid configuration in ${file}: ${(error as Error).message}` };
  }
  if (!isRecord(value))
    return { ok: false, message: `Invalid configuration in ${file}: the top level must be an object.` };
  return { ok: true, value };
}

function isSettingDecl(value: unknown): value is ExtensionSettingDecl {
  return isRecord(value) && typeof value.name === 'string' && typeof value.envVar === 'string';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}
