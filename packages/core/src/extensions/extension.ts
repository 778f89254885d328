import type { ExtensionSettingDecl } from './manifest';

/** How an extension was installed (`.gemini-extension-install.json`, the same file as Gemini CLI's). */
export interface InstallMetadata {
  source: string;
  type: 'git' | 'local' | 'link' | 'github-release';
  ref?: string;
}

export const INSTALL_METADATA_FILE = '.gemini-extension-install.json';

/** An installed extension or plugin, with what it brings, as kodo uses it. */
export interface Extension {
  name: string;
  version: string;
  description?: string;
  kind: 'gemini' | 'claude-plugin';
  /** Its files: the install folder, or a linked extension's source folder. */
  path: string;
  /** The folder under the extensions directory (holds the install metadata). */
  installDir: string;
  /** Which program's folder it was found in. */
  origin: 'kodo' | 'gemini' | 'claude';
  install?: InstallMetadata;
  enabled: boolean;
  /** MCP servers, variables substituted. */
  mcpServers: Record<string, Record<string, unknown>>;
  /** Context files that exist, absolute. */
  contextFiles: string[];
  excludeTools: string[];
  commandDirs: string[];
  skillDirs: string[];
  agentDirs: string[];
  /** The `hooks` object of its hooks file (event → definitions), variables substituted. */
  hooks?: Record<string, unknown>;
  /** Its `policies/` folder, when present. */
  policiesDir?: string;
  settings: ExtensionSettingDecl[];
  /** Gemini CLI custom theme objects from its manifest, as written (the UI maps them). */
  themes?: Record<string, unknown>[];
}

/**
 * An extension as its files describe it, before this run's values: MCP servers and hooks as
 * written, variables unsubstituted. It holds no environment or setting values (secrets among
 * them), so it may be kept between runs; resolveExtension makes the Extension.
 */
export interface ExtensionFiles extends Omit<Extension, 'mcpServers' | 'hooks'> {
  rawMcpServers: Record<string, Record<string, unknown>>;
  /** The hooks file's `hooks` object (a plugin's in Claude Code's names). */
  rawHooks?: Record<string, unknown>;
}
