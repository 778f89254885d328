import { type LoadedSettings, loadSettings, SettingsError } from '@kodo/core/engine';
import { ExitCode } from '../shared/exit-codes';
import { HOOKS_HELP } from '../shared/help';
import { formatHookList, setHookDisabled } from '../shared/hook-settings';

/**
 * `kodo hooks list|enable|disable`: what hooks the settings define, and turning one
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
