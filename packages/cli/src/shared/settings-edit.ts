import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { kodoHome, type LoadedSettings, SettingsError } from '@kodo/core/engine';
// The ESM build: the package's default entry is a UMD module bundlers cannot follow. A static
// import: core reads settings with the same module, so it is loaded already.
import { applyEdits, modify, parse } from 'jsonc-parser/lib/esm/main.js';
import { keepingTrustFingerprint } from './trust-gate';

export type EditScope = 'user' | 'workspace';

/** The settings file kodo reads for the scope (`.kodo` or `.gemini`), or kodo's own when none exists. */
export function settingsFileFor(
  loaded: LoadedSettings,
  scope: EditScope,
  place: { cwd: string; env: NodeJS.ProcessEnv },
): string {
  const read = loaded.scopes?.find((entry) => entry.scope === (scope === 'user' ? 'user' : 'project'));
  if (read) return read.path;
  return scope === 'user'
    ? join(kodoHome(place.env), 'settings.json')
    : join(place.cwd, '.kodo', 'settings.json');
}

/** Sets one key path in a settings file, keeping its formatting and comments. */
export async function writeSetting(path: string, keys: (string | number)[], value: unknown): Promise<void> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = '{}\n';
  }
  const errors: Parameters<typeof parse>[1] = [];
  const parsed = parse(text, errors, { allowTrailingComma: true });
  if ((errors?.length ?? 0) > 0 || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SettingsError(`Invalid settings file ${path}: kodo does not rewrite a file it cannot read.`);
  }
  const edits = modify(text, keys, value, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, applyEdits(text, edits));
}

/** `skills.disabled` of one settings file, as written there. */
export function disabledSkillsIn(loaded: LoadedSettings, scope: EditScope): string[] {
  const settings = loaded.scopes?.find(
    (entry) => entry.scope === (scope === 'user' ? 'user' : 'project'),
  )?.settings;
  const list = (settings as { skills?: { disabled?: unknown } } | undefined)?.skills?.disabled;
  return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
}

/** Adds or removes a skill name in `skills.disabled` of the scope's settings file; returns the file. */
export async function setSkillDisabled(
  loaded: LoadedSettings,
  options: { name: string; disabled: boolean; scope: EditScope; cwd: string; env: NodeJS.ProcessEnv },
): Promise<string | undefined> {
  const current = disabledSkillsIn(loaded, options.scope);
  const lower = options.name.toLowerCase();
  const has = current.some((name) => name.toLowerCase() === lower);
  if (options.disabled === has) return undefined;
  const next = options.disabled
    ? [...current, options.name]
    : current.filter((name) => name.toLowerCase() !== lower);
  const path = settingsFileFor(loaded, options.scope, options);
  // The person's own change to the project's settings: not a change since they trusted it.
  await keepingTrustFingerprint(options.cwd, options.env, () =>
    writeSetting(path, ['skills', 'disabled'], next),
  );
  return path;
}
