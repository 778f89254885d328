import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { isRecord } from '../utils/is-record';
import { parseJsonc } from '../utils/jsonc';
import { expandEnvInSettings } from './env-expand';
import { geminiHome, kodoHome } from './paths';
import { checkSettings, setOwn } from './settings-check';
import type { Settings } from './settings-types';

export type { Settings } from './settings-types';

/** One settings file that was read, with the scope it belongs to. */
export interface SettingsScope {
  scope: 'user' | 'project';
  path: string;
  settings: Settings;
}

export interface LoadedSettings {
  merged: Settings;
  /** Files that were read, in precedence order (later wins). */
  sources: string[];
  /**
   * Values that were wrong and left out, one line each (`~/.gemini/settings.json: model.name
   * must be a string`), for the front end to print once. Absent for settings built by hand.
   */
  problems?: string[];
  /**
   * The same files with their contents, for what must know a setting's scope (project hooks).
   * Always set by loadSettings; optional for settings built by hand (tests).
   */
  scopes?: SettingsScope[];
}

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/**
 * User then project settings; later wins, objects merge deeply. For each scope kodo's own file
 * is used, or Gemini CLI's `.gemini/settings.json` when kodo's is absent. Each file is checked
 * against the settings schema first (settings-check.ts): wrong values are left out and listed in
 * `problems`; a wrong safety setting throws SettingsError (exit 52), listing every one.
 */
export function loadSettings(options: {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Leave out the project's files: the folder is not trusted. */
  skipProject?: boolean;
  /**
   * The user's settings as an earlier call with `skipProject` loaded them (same env): start from
   * those instead of reading and checking the user's file again.
   */
  user?: LoadedSettings;
}): LoadedSettings {
  const env = options.env ?? process.env;
  const scopes = [
    ...(options.user
      ? []
      : ([
          ['user', [join(kodoHome(env), 'settings.json'), join(geminiHome(env), 'settings.json')]],
        ] as const)),
    ...(options.skipProject
      ? []
      : ([
          [
            'project',
            [join(options.cwd, '.kodo', 'settings.json'), join(options.cwd, '.gemini', 'settings.json')],
          ],
        ] as const)),
  ] as const;
  let merged: Record<string, unknown> = { ...(options.user?.merged as Record<string, unknown> | undefined) };
  const sources: string[] = [...(options.user?.sources ?? [])];
  const read: SettingsScope[] = [...(options.user?.scopes ?? [])];
  const problems: string[] = [...(options.user?.problems ?? [])];
  const fatal: string[] = [];
  for (const [scope, candidates] of scopes) {
    if (scope === 'project') {
      // Claude Code's project MCP file, below the project's own settings (which win on a name).
      const path = join(options.cwd, PROJECT_MCP_FILE);
      const servers = projectMcpServers(path, env, problems);
      if (servers) {
        merged = deepMerge(merged, servers as Record<string, unknown>);
        sources.push(path);
        read.push({ scope, path, settings: servers });
      }
    }
    for (const path of candidates) {
      const raw = readJsonFile(path);
      if (raw === undefined) continue;
      const checked = checkSettings(expandEnvInSettings(raw, env));
      const shown = displayPath(path, env);
      for (const problem of checked.problems) {
        (problem.fatal ? fatal : problems).push(`${shown}: ${problem.path} ${problem.message}`);
      }
      merged = deepMerge(merged, checked.settings as Record<string, unknown>);
      sources.push(path);
      read.push({ scope, path, settings: checked.settings });
      break;
    }
  }
  if (fatal.length > 0) {
    throw new SettingsError(
      `${fatal.join('\n')}\nkodo does not start while a safety setting (trust, sandbox, policies, tool restrictions, hooks) cannot be read: fix the value or remove the key.`,
    );
  }
  return { merged: merged as Settings, sources, scopes: read, problems };
}

/** Claude Code's project MCP servers (`{"mcpServers": {…}}`), read in trusted folders only. */
export const PROJECT_MCP_FILE = '.mcp.json';

/**
 * The servers of a project's `.mcp.json` as settings. Its entries are Claude Code's (`type`
 * stdio, http or sse; `command`, `args`, `env`, `url`, `headers`), which kodo's `mcpServers`
 * entries read as they are; `${VAR}` is expanded where the server is started. Wrong values are
 * left out and listed like a settings file's; a file that does not parse is one problem, not a
 * stop: it is another tool's file.
 */
function projectMcpServers(path: string, env: NodeJS.ProcessEnv, problems: string[]): Settings | undefined {
  let raw: Record<string, unknown> | undefined;
  try {
    raw = readJsonFile(path);
  } catch (error) {
    problems.push(`${(error as Error).message} (its MCP servers are not started)`);
    return undefined;
  }
  if (raw === undefined) return undefined;
  const shown = displayPath(path, env);
  if (!isRecord(raw.mcpServers)) {
    problems.push(`${shown}: mcpServers must be an object (its MCP servers are not started)`);
    return undefined;
  }
  const checked = checkSettings({ mcpServers: raw.mcpServers });
  for (const problem of checked.problems) problems.push(`${shown}: ${problem.path} ${problem.message}`);
  return checked.settings.mcpServers ? { mcpServers: checked.settings.mcpServers } : undefined;
}

/** `~/…` for files under the home directory, as people write them. */
function displayPath(path: string, env: NodeJS.ProcessEnv): string {
  const home = resolve(env.HOME ?? homedir());
  return path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}

function readJsonFile(path: string): Record<string, unknown> | undefined {
  // Most of the four candidate files are absent: asking first skips building an ENOENT error
  // (with its stack) for each, on every start.
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = parseJsonc(text);
  } catch (error) {
    throw new SettingsError(`Invalid settings file ${path}: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SettingsError(`Invalid settings file ${path}: the top level must be an object`);
  }
  return value as Record<string, unknown>;
}

function deepMerge(
  base: Record<string, unknown>,
  override: Record<string, unknown>,
  path: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const existing = out[key];
    const at = [...path, key];
    // `mcpServers` merges shallowly, as in Gemini CLI: a server entry is replaced, never mixed.
    if (isRecord(existing) && isRecord(value) && !(at.length === 2 && at[0] === 'mcpServers')) {
      setOwn(out, key, deepMerge(existing, value, at));
    } else if (Array.isArray(existing) && Array.isArray(value)) {
      setOwn(out, key, mergeArrays(at, existing, value));
    } else if (existing === true && LOCKDOWN_SWITCHES.has(at.join('.'))) {
      // Kept: a later scope (a project) cannot unlock what an earlier one (the user) locked.
    } else {
      setOwn(out, key, value);
    }
  }
  return out;
}

/** Switches that lock something down: `true` in any scope stays `true`. */
const LOCKDOWN_SWITCHES = new Set(['security.disableYoloMode', 'admin.secureModeEnabled']);

/**
 * Arrays are replaced by the later scope, except, as in Gemini CLI, the hook definitions of each
 * event, which add up so user and project hooks both run, and the lists below, unions: a hook
 * disabled, a tool excluded or an ignore file named in either scope stays so.
 */
const UNION_ARRAYS = new Set([
  'hooksConfig.disabled',
  'tools.exclude',
  'context.fileFiltering.customIgnoreFilePaths',
  'advanced.excludedEnvVars',
]);

function mergeArrays(path: readonly string[], base: unknown[], override: unknown[]): unknown[] {
  if (path.length === 2 && path[0] === 'hooks') return [...base, ...override];
  if (UNION_ARRAYS.has(path.join('.'))) return [...new Set([...base, ...override])];
  return override;
}
