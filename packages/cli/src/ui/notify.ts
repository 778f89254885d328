import type { Settings } from '@kodo/core/engine';

/**
 * Desktop notifications for a terminal app: the bell (every terminal; many flash or badge the
 * window) and OSC 9 (iTerm2, WezTerm, kitty, Windows Terminal, foot… show a desktop
 * notification). Whether the terminal has focus comes from focus reporting (CSI ?1004h): the
 * terminal then sends CSI I on focus and CSI O on blur. A terminal that never reports leaves the
 * focus unknown, and kodo notifies then (a bell too many beats a missed approval).
 */

export const FOCUS_REPORTING_ON = '\u001b[?1004h';
export const FOCUS_REPORTING_OFF = '\u001b[?1004l';

/** The focus report a key event carries (Ink strips the ESC), if it is one. */
export function focusReport(input: string): 'in' | 'out' | undefined {
  if (input === '[I' || input === '\u001b[I') return 'in';
  if (input === '[O' || input === '\u001b[O') return 'out';
  return undefined;
}

const MAX_MESSAGE = 200;

/** The bell, then the message as an OSC 9 notification; control characters are dropped. */
export function notificationSequence(message: string): string {
  const clean = message.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, MAX_MESSAGE);
  return `\u0007\u001b]9;${clean}\u0007`;
}

export interface NotificationPolicy {
  enabled: boolean;
  /** A turn at least this long notifies when it ends. */
  longTurnMs: number;
}

const DEFAULT_LONG_TURN_SECONDS = 10;

/** `ui.notifications` (on by default, 10 s); `KODO_NOTIFICATIONS=0` turns it off too. */
export function notificationPolicy(settings: Settings, env: NodeJS.ProcessEnv): NotificationPolicy {
  const configured = settings.ui?.notifications;
  const offByEnv = env.KODO_NOTIFICATIONS === '0' || env.KODO_NOTIFICATIONS === 'false';
  return {
    enabled: configured?.enabled !== false && !offByEnv,
    longTurnMs: (configured?.longTurnSeconds ?? DEFAULT_LONG_TURN_SECONDS) * 1000,
  };
}
