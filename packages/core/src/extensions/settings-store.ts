import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { kodoHome } from '../config/paths';
import { readTextIfExists } from '../utils/fs-read';
import { writePrivateFile } from '../utils/private-file';
import type { ExtensionSettingDecl } from './manifest';

/**
 * Where the values of an extension's declared `settings` live, as Gemini CLI keeps them:
 * user scope in the extension's own `.env`, workspace scope in the workspace's `.env` (only the
 * extension's declared variables are taken from it, and only in trusted folders). Gemini CLI
 * puts `sensitive` values in the OS keychain; kodo has none, so they go to
 * `~/.kodo/extension-secrets.json` (mode 0600, outside the extension folder so a linked source
 * folder or a shared copy never holds them; kodo's home is hidden from the shell sandbox).
 */
export type SettingScope = 'user' | 'workspace';

export interface SettingPlace {
  /** The extension's name and install folder (`<extensions>/<name>`). */
  name: string;
  installDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

interface SecretsFile {
  [extension: string]: { user?: Record<string, string>; workspaces?: Record<string, Record<string, string>> };
}

export function secretsFile(env: NodeJS.ProcessEnv): string {
  return join(kodoHome(env), 'extension-secrets.json');
}

/**
 * The values an extension's settings have for this run: its `.env` (user scope), its user
 * secrets, then, workspace over user, the workspace `.env` (trusted folders only) and the
 * workspace secrets. `missing` lists the declared settings that have no value anywhere,
 * the process environment included.
 */
export function readSettingValues(
  place: SettingPlace,
  declared: readonly ExtensionSettingDecl[],
  options: { trusted: boolean },
): { values: Record<string, string>; missing: ExtensionSettingDecl[] } {
  const values: Record<string, string> = { ...readDotEnv(join(place.installDir, '.env')) };
  const secrets = readSecrets(place.env)[place.name];
  Object.assign(values, secrets?.user ?? {});
  if (options.trusted && declared.length > 0) {
    const workspace = readDotEnv(join(place.cwd, '.env'));
    for (const setting of declared) {
      const value = workspace[setting.envVar];
      if (value !== undefined && value !== '') values[setting.envVar] = value;
    }
  }
  Object.assign(values, secrets?.workspaces?.[place.cwd] ?? {});
  const missing = declared.filter(
    (setting) => !values[setting.envVar] && !place.env[setting.envVar] && setting.envVar !== '',
  );
  return { values, missing };
}

/** Stores one setting's value in its scope (see above); an empty value removes it. */
export function writeSetting(
  place: SettingPlace,
  setting: ExtensionSettingDecl,
  value: string,
  scope: SettingScope,
): string {
  if (/[\r\n]/.test(value)) throw new Error('A setting value cannot span lines.');
  if (setting.sensitive) {
    const file = secretsFile(place.env);
    const all = readSecrets(place.env);
    const entry = all[place.name] ?? {};
    all[place.name] = entry;
    let target: Record<string, string>;
    if (scope === 'user') {
      target = entry.user ?? {};
      entry.user = target;
    } else {
      const workspaces = entry.workspaces ?? {};
      entry.workspaces = workspaces;
      target = workspaces[place.cwd] ?? {};
      workspaces[place.cwd] = target;
    }
    if (value === '') delete target[setting.envVar];
    else target[setting.envVar] = value;
    writePrivateFile(file, `${JSON.stringify(all, null, 2)}\n`);
    return file;
  }
  const file = scope === 'user' ? join(place.installDir, '.env') : join(place.cwd, '.env');
  setDotEnvLine(file, setting.envVar, value);
  return file;
}

/** The extension's secrets go when it is uninstalled. */
export function forgetSecrets(name: string, env: NodeJS.ProcessEnv): void {
  const all = readSecrets(env);
  if (!(name in all)) return;
  delete all[name];
  writePrivateFile(secretsFile(env), `${JSON.stringify(all, null, 2)}\n`);
}

/** `KEY=value` lines (quotes removed; `#` comments and other lines skipped). */
export function readDotEnv(file: string): Record<string, string> {
  const text = readTextIfExists(file);
  if (text === undefined) return {};
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!.trim();
    if (/^".*"$/.test(value)) value = value.slice(1, -1).replaceAll('\\"', '"');
    else if (/^'.*'$/.test(value)) value = value.slice(1, -1);
    out[match[1]!] = value;
  }
  return out;
}

/** Replaces (or appends) one `KEY=value` line, keeping every other line of the file as it was. */
function setDotEnvLine(file: string, name: string, value: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const pattern = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`);
  const kept = lines.filter((line) => !pattern.test(line));
  if (value !== '') kept.push(`${name}=${quote(value)}`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, kept.length > 0 ? `${kept.join('\n')}\n` : '');
}

function quote(value: string): string {
  return /^[A-Za-z0-9_./:@%+,=-]*$/.test(value) ? value : `"${value.replaceAll('"', '\\"')}"`;
}

function readSecrets(env: NodeJS.ProcessEnv): SecretsFile {
  const text = readTextIfExists(secretsFile(env));
  if (text === undefined) return {};
  try {
    const data: unknown = JSON.parse(text);
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as SecretsFile) : {};
  } catch {
    return {};
  }
}
