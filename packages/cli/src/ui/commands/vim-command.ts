import { settingsFileFor, writeSetting } from '../../shared/settings-edit';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

/** `/vim`: vim keybindings in the input on or off, saved as `general.vimMode` in the user's settings. */
export const vimCommand: SlashCommand = terminalBuiltin('vim', {
  whileBusy: true,
  async run({ vimMode, setVimMode, settings, cwd, env, addItem }) {
    const enabled = !vimMode;
    setVimMode(enabled);
    const state = enabled
      ? 'Vim mode on: Esc for normal mode (h j k l w b 0 $ x dd), i a A o to insert.'
      : 'Vim mode off.';
    const path = settingsFileFor(settings, 'user', { cwd, env });
    try {
      await writeSetting(path, ['general', 'vimMode'], enabled);
      addItem({ kind: 'info', tone: 'success', text: `${state} Saved in ${path}.` });
    } catch (error) {
      addItem({
        kind: 'info',
        tone: 'warning',
        text: `${state} Not saved: ${(error as Error).message}`,
      });
    }
  },
});
