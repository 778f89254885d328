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
  loadSettings,
  SettingsError,
} from '@kodo/core/engine';
// The ESM build: the package's default entry is a UMD module bundlers cannot follow. A static
// import: core reads settings with the same module, so it is loaded already.
import { applyEdits, modify } from 'jsonc-parser/lib/esm/main.js';
import { ExitCode } from '../exit-codes';
import { HOOKS_HELP } from '../help';
import type { SlashCommand } from '../ui/commands/types';

/**
 * `kodo hooks list|enable|disable` and `/hooks`: what hooks the settings define, and turning one
 * off or on again. Enabling and disabling edit `hooksConfig.disabled` in the user settings file
 * (the one kodo reads for the user scope), keeping the rest of the file, comments included.
 */

export interface HooksCommandContext {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export async function runHooksCommand(context: HooksCommandContext): Promise<number> {
  const [action = 'list', ...rest] = context.args;
  const name = rest.join(' ').trim();
  let loaded: LoadedSettings;
  try {
    loaded = loadSettings({ cwd: context.cwd, env: context.env });
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    context.stderr.write(`[ERROR] ${error.message}\n`);
    return ExitCode.config;
  }
  if (action === 'list') {
    context.stdout.write(`${formatHookList(loaded)}\n`);
    return ExitCode.ok;
  }
  if ((action === 'enable' || action === 'disable') && name !== '') {
    try {
      const result = await setHookDisabled(loaded, {
        name,
        disabled: action === 'disable',
        env: context.env,
      });
      context.stdout.write(`${result.message}\n`);
      return result.ok ? ExitCode.ok : ExitCode.error;
    } catch (error) {
      context.stderr.write(`[ERROR] ${(error as Error).message}\n`);
      return ExitCode.error;
    }
  }
  if (action === '--help' || action === '-h' || action === 'help') {
    context.stdout.write(HOOKS_HELP);
    return ExitCode.ok;
  }
  const problem =
    action === 'enable' || action === 'disable'
      ? `kodo hooks ${action} needs the name of a hook`
      : `Unknown hooks command: ${action}`;
  context.stderr.write(`[ERROR] ${problem} (see kodo hooks --help)\n`);
  return ExitCode.error;
}

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

/**
 * `/hooks [list|enable <name>|disable <name>]` for the interactive UI: the same listing and
 * settings edit, applied to the running session as well.
 */
export const hooksSlashCommand: SlashCommand = {
  name: 'hooks',
  description: 'List hooks, or enable or disable one',
  subcommands: [
    { name: 'list', description: 'List the configured hooks' },
    { name: 'enable', description: 'Run a disabled hook again' },
    { name: 'disable', description: 'Stop running a hook' },
  ],
  whileBusy: true,
  async run({ args, cwd, env, session, addItem }) {
    const [action = 'list', ...rest] = args.split(/\s+/).filter((word) => word !== '');
    const name = rest.join(' ');
    let body: string;
    try {
      const loaded = loadSettings({ cwd, env });
      if ((action === 'enable' || action === 'disable') && name !== '') {
        const result = await setHookDisabled(loaded, { name, disabled: action === 'disable', env });
        if (result.ok) {
          const labels = [
            name,
            ...hookConfigOf(loaded)
              .registrations.filter((h) => h.name === name)
              .map((h) => h.command),
          ];
          for (const label of labels) {
            if (action === 'disable') session.hooks?.disableHook(label);
            else session.hooks?.enableHook(label);
          }
        }
        body = result.message;
      } else {
        body = formatHookList(loaded);
      }
    } catch (error) {
      body = (error as Error).message;
    }
    addItem({ kind: 'panel', title: 'Hooks', body });
  },
};
