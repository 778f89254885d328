import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  HOOK_EVENTS,
  type HookConfig,
  type HookRegistration,
  hookConfigFromSources,
  hookLabel,
  isHookDisabled,
  kodoHome,
  type LoadedSettings,
} from '@kodo/core/engine';
// The ESM build: the package's default entry is a UMD module bundlers cannot follow. A static
// import: core reads settings with the same module, so it is loaded already.
import { applyEdits, modify } from 'jsonc-parser/lib/esm/main.js';

/**
 * The hooks the settings define and turning one off or on again, for `kodo hooks` and `/hooks`.
 * Enabling and disabling edit `hooksConfig.disabled` in the user settings file (the one kodo
 * reads for the user scope), keeping the rest of the file, comments included.
 */

/** Every configured hook, by event, with its scope, matcher, and whether it is disabled. */
export function hookConfigOf(loaded: LoadedSettings): HookConfig {
  return hookConfigFromSources(
    (loaded.scopes ?? []).map(({ scope, settings }) => ({
      scope,
      hooks: settings.hooks,
      hooksConfig: settings.hooksConfig,
    })),
    { allowProjectHooks: true },
  );
}

export function formatHookList(loaded: LoadedSettings): string {
  const config = hookConfigOf(loaded);
  const lines: string[] = [];
  if (config.registrations.length === 0) {
    lines.push('No hooks are configured.');
    lines.push(
      'Add them under "hooks" in ~/.kodo/settings.json or .kodo/settings.json (see `hooks` in the docs).',
    );
  } else {
    if (!config.enabled) lines.push('All hooks are off (hooksConfig.enabled is false).', '');
    for (const event of HOOK_EVENTS) {
      const hooks = config.registrations.filter((registration) => registration.event === event);
      if (hooks.length === 0) continue;
      lines.push(event);
      for (const hook of hooks) lines.push(...describeHook(hook, config));
    }
  }
  for (const problem of config.problems) lines.push(`Warning: ${problem}`);
  return lines.join('\n').trimEnd();
}

function describeHook(hook: HookRegistration, config: HookConfig): string[] {
  const off = isHookDisabled(hook, config.disabled);
  const facts = [
    hook.scope,
    ...(hook.matcher ? [`matcher ${hook.matcher}`] : []),
    ...(hook.sequential ? ['sequential'] : []),
    `timeout ${hook.timeoutMs}ms`,
  ];
  const head = `  ${off ? '[disabled]' : '[enabled] '} ${hook.name ?? hook.command} (${facts.join(', ')})`;
  const out = [head];
  if (hook.name) out.push(`      ${hook.command}`);
  if (hook.description) out.push(`      ${hook.description}`);
  return out;
}

/**
 * Adds a hook to, or removes it from, `hooksConfig.disabled` of the user settings. A name that
 * matches no configured hook is refused when disabling (a typo would otherwise pass silently).
 */
export async function setHookDisabled(
  loaded: LoadedSettings,
  options: { name: string; disabled: boolean; env: NodeJS.ProcessEnv },
): Promise<{ ok: boolean; message: string; path?: string }> {
  const config = hookConfigOf(loaded);
  const matching = config.registrations.filter(
    (hook) => hook.name === options.name || hook.command === options.name,
  );
  const userScope = loaded.scopes?.find((scope) => scope.scope === 'user');
  const path = userScope?.path ?? join(kodoHome(options.env), 'settings.json');
  const current = userScope?.settings.hooksConfig?.disabled;
  const userDisabled = Array.isArray(current) ? current.filter((entry) => typeof entry === 'string') : [];
  if (options.disabled) {
    if (matching.length === 0) return { ok: false, message: unknownHook(options.name, config) };
    if (userDisabled.includes(options.name)) {
      return { ok: true, message: `Hook "${options.name}" is already disabled.`, path };
    }
    await writeDisabled(path, [...userDisabled, options.name]);
    return { ok: true, message: `Disabled hook "${options.name}" (${path}).`, path };
  }
  // Enabling removes every entry that names one of the matching hooks (by name or command).
  const labels = new Set([
    options.name,
    ...matching.flatMap((hook) => [hook.command, ...(hook.name ? [hook.name] : [])]),
  ]);
  const remaining = userDisabled.filter((entry) => !labels.has(entry));
  const projectDisabled = new Set(
    (loaded.scopes ?? [])
      .filter((scope) => scope.scope === 'project')
      .flatMap((scope) => scope.settings.hooksConfig?.disabled ?? []),
  );
  const stillOff = matching.some((hook) => isHookDisabled(hook, projectDisabled));
  if (remaining.length === userDisabled.length) {
    if (matching.length === 0) return { ok: false, message: unknownHook(options.name, config) };
    return stillOff
      ? {
          ok: false,
          message: `Hook "${options.name}" is disabled by the project settings; kodo only edits the user settings.`,
        }
      : { ok: true, message: `Hook "${options.name}" is already enabled.`, path };
  }
  await writeDisabled(path, remaining);
  const note = stillOff ? ' It is still disabled by the project settings.' : '';
  return { ok: true, message: `Enabled hook "${options.name}" (${path}).${note}`, path };
}

function unknownHook(name: string, config: HookConfig): string {
  const known = [...new Set(config.registrations.map((hook) => hookLabel(hook)))];
  return known.length > 0
    ? `No hook named "${name}". Configured hooks: ${known.map((label) => `"${label}"`).join(', ')}.`
    : `No hook named "${name}": no hooks are configured.`;
}

/** Rewrites only `hooksConfig.disabled`, with the file's own formatting and comments kept. */
async function writeDisabled(path: string, disabled: string[]): Promise<void> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = '{}\n';
  }
  const edits = modify(text, ['hooksConfig', 'disabled'], disabled, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, applyEdits(text, edits));
}
