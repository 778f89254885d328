import { loadSettings } from '@kodo/core/engine';
import { formatHookList, hookConfigOf, setHookDisabled } from '../../shared/hook-settings';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

/**
 * `/hooks [list|enable <name>|disable <name>]` for the interactive UI: the same listing and
 * settings edit, applied to the running session as well.
 */
export const hooksSlashCommand: SlashCommand = terminalBuiltin('hooks', {
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
            if (action === 'disable') session.disableHook(label);
            else session.enableHook(label);
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
});
