/**
 * The two libraries behind the shell's pseudo-terminal, loaded on the first command that needs
 * them (never on the headless path, nor at UI start-up): `@lydell/node-pty` (prebuilt native
 * binaries) opens the terminal, `@xterm/headless` emulates the screen so it is drawn as a
 * terminal would draw it (cursor moves, line redraws, clears).
 */

/** What kodo uses of a node-pty process. */
export interface PtyProcess {
  readonly pid: number;
  onData(listener: (data: string) => void): { dispose(): void };
  onExit(listener: (event: { exitCode: number; signal?: number }) => void): { dispose(): void };
  write(data: string): void;
  resize(columns: number, rows: number): void;
  pause(): void;
  resume(): void;
}

/** What kodo uses of an xterm headless terminal. */
export interface ScreenEmulator {
  readonly rows: number;
  readonly cols: number;
  write(data: string, callback?: () => void): void;
  resize(columns: number, rows: number): void;
  dispose(): void;
  readonly buffer: {
    readonly active: {
      readonly baseY: number;
      readonly cursorX: number;
      readonly cursorY: number;
      getLine(row: number): { translateToString(trimRight?: boolean): string } | undefined;
    };
  };
}

export interface PtyBackend {
  spawn(
    file: string,
    args: string[],
    options: { cols: number; rows: number; cwd: string; env: NodeJS.ProcessEnv },
  ): PtyProcess;
  screen(size: { columns: number; rows: number }): ScreenEmulator;
}

/** Loads both libraries, or says why they cannot be loaded here. */
export async function loadPtyBackend(): Promise<{ backend: PtyBackend } | { error: string }> {
  try {
    const [ptyModule, xtermModule] = await Promise.all([
      import('@lydell/node-pty'),
      import('@xterm/headless'),
    ]);
    // Both are CommonJS: depending on the loader the exports are the namespace or its default.
    const pty = ptyModule.default ?? ptyModule;
    const xterm = xtermModule.default ?? xtermModule;
    return {
      backend: {
        spawn: (file, args, options) =>
          pty.spawn(file, args, {
            name: 'xterm-256color',
            cols: options.cols,
            rows: options.rows,
            cwd: options.cwd,
            env: definedOnly(options.env),
          }),
        screen: ({ columns, rows }) =>
          new xterm.Terminal({ cols: columns, rows, scrollback: 1000, allowProposedApi: true }),
      },
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** node-pty writes every entry as `NAME=value`: an unset variable must be left out, not "undefined". */
function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) defined[name] = value;
  return defined;
}
