/**
 * The screens of the commands running in a pseudo-terminal, and which one the person is typing
 * into. An external store for React (`useSyncExternalStore`): the tool box of a running shell
 * call draws its screen, the App routes keys to the focused one.
 */

export interface TerminalScreen {
  /** The visible rows, trailing blank rows dropped. */
  lines: string[];
  cursor: { row: number; column: number };
}

export interface ScreensSnapshot {
  /** By tool call id. */
  screens: ReadonlyMap<string, TerminalScreen>;
  /** The call whose command gets the keys, if any. */
  focused: string | undefined;
}

/** One running command, as the store sees it. */
export interface LiveTerminal {
  write(data: string): void;
  resize(columns: number, rows: number): void;
}

export class TerminalScreens {
  private snapshot: ScreensSnapshot = { screens: new Map(), focused: undefined };
  private readonly listeners = new Set<() => void>();
  private readonly live = new Map<string, LiveTerminal>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  current = (): ScreensSnapshot => this.snapshot;

  /** A command started (its screen is empty until it prints). */
  add(id: string, terminal: LiveTerminal): void {
    this.live.set(id, terminal);
    this.setScreen(id, { lines: [], cursor: { row: 0, column: 0 } });
  }

  setScreen(id: string, screen: TerminalScreen): void {
    if (!this.live.has(id)) return;
    const screens = new Map(this.snapshot.screens).set(id, screen);
    this.publish({ ...this.snapshot, screens });
  }

  /** The command ended: its screen goes, and the keys come back to the prompt. */
  remove(id: string): void {
    this.live.delete(id);
    const screens = new Map(this.snapshot.screens);
    screens.delete(id);
    this.publish({ screens, focused: this.snapshot.focused === id ? undefined : this.snapshot.focused });
  }

  /**
   * The shell focus key: into the newest running command, or back out. False when nothing runs
   * in a terminal (the key then means nothing).
   */
  toggleFocus(): boolean {
    if (this.snapshot.focused !== undefined) {
      this.publish({ ...this.snapshot, focused: undefined });
      return true;
    }
    const newest = [...this.live.keys()].at(-1);
    if (newest === undefined) return false;
    this.publish({ ...this.snapshot, focused: newest });
    return true;
  }

  /** Keys typed while a command has the focus, as the terminal sends them. */
  write(data: string): void {
    const id = this.snapshot.focused;
    if (id !== undefined) this.live.get(id)?.write(data);
  }

  resizeAll(columns: number, rows: number): void {
    for (const terminal of this.live.values()) terminal.resize(columns, rows);
  }

  private publish(next: ScreensSnapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}
