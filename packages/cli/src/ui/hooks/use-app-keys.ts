import type { ApprovalMode, Session } from '@kodo/core/engine';
import type { Keymap } from '../keys/keymap';
import type { TerminalScreens } from '../terminal/terminal-screens';
import { useKeyHandler } from './use-key-handler';
import { SHELL_FOCUS_KEY } from './use-terminal-screens';

/**
 * The App's own shortcuts, whatever has the prompt: focus a running command's screen (Ctrl+F),
 * cycle the approval mode, YOLO on and off, thoughts expanded or not, redraw. While a command has
 * the keys they are its own.
 */
export function useAppKeys(options: {
  session: Session;
  /** The session the App was started with: YOLO joins the cycle only while that one is in YOLO. */
  firstSession: Session;
  keymap: Keymap;
  shellFocused: boolean;
  terminals: TerminalScreens | undefined;
  toggleYolo(): void;
  toggleThoughts(): void;
  redraw(): void;
}): void {
  const { session, keymap, shellFocused, terminals } = options;
  useKeyHandler(
    (input, key) => {
      // Stays subscribed while a command has the keys, so the terminal stays in raw mode.
      if (shellFocused) return;
      if (input === SHELL_FOCUS_KEY || (key.ctrl && input === 'f')) {
        terminals?.toggleFocus();
        return;
      }
      const action = keymap.actionFor(input, key);
      if (action === 'app:cycleMode') {
        const cycle: ApprovalMode[] = ['default', 'auto_edit', 'plan'];
        if (options.firstSession.getApprovalMode() === 'yolo') cycle.push('yolo');
        const next = cycle[(cycle.indexOf(session.getApprovalMode()) + 1) % cycle.length]!;
        session.setApprovalMode(next, { source: 'keys' });
      } else if (action === 'app:toggleYolo') {
        options.toggleYolo();
      } else if (action === 'app:toggleThoughts') {
        options.toggleThoughts();
      } else if (action === 'app:redraw') {
        options.redraw();
      }
    },
    { isActive: true },
  );
}
