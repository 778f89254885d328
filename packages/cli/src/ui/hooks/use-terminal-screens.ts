import { useStdin } from 'ink';
import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import type { ScreensSnapshot, TerminalScreen, TerminalScreens } from '../terminal/terminal-screens';

/** Gemini CLI's key for typing into a running shell command and back (Ctrl+F). */
export const SHELL_FOCUS_KEY = '\u0006';

/** The screens of commands running in a pseudo-terminal; absent where commands use pipes. */
export const TerminalScreensContext = createContext<TerminalScreens | undefined>(undefined);

const NONE: ScreensSnapshot = { screens: new Map(), focused: undefined };
const noSubscription = () => () => undefined;

export function useScreens(screens: TerminalScreens | undefined): ScreensSnapshot {
  return useSyncExternalStore(screens?.subscribe ?? noSubscription, screens?.current ?? (() => NONE));
}

/** One call's screen while its command runs, and whether it has the keys. */
export function useTerminalScreen(callId: string): { screen: TerminalScreen; focused: boolean } | undefined {
  const snapshot = useScreens(useContext(TerminalScreensContext));
  const screen = snapshot.screens.get(callId);
  return screen ? { screen, focused: snapshot.focused === callId } : undefined;
}

/**
 * While a command has the focus, every key goes to it as the terminal sent it (Esc, Ctrl+C,
 * arrows included), except the focus key, which gives the keys back to the prompt. The raw
 * input is Ink's own stream of key sequences; the App's other key handlers stand aside.
 */
export function useTerminalKeys(screens: TerminalScreens | undefined, focused: boolean): void {
  const { internal_eventEmitter: input } = useStdin();
  useEffect(() => {
    if (!screens || !focused) return;
    const forward = (data: string) => {
      if (data === SHELL_FOCUS_KEY) screens.toggleFocus();
      else screens.write(data);
    };
    input.on('input', forward);
    return () => {
      input.off('input', forward);
    };
  }, [screens, focused, input]);
}
