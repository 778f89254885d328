import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KODO_BIN } from './run-kodo';
import { shellQuote, TmuxSession } from './tmux';

/** The input's placeholder: on screen once the UI is up and takes keys. */
export const KODO_READY = 'Type your message';

export interface KodoTmuxOptions {
  /** Added to (or replacing) the base environment of every kodo this starts. */
  env?: Record<string, string>;
}

/**
 * The built `kodo` in a real terminal for one test: a temp workspace (its real path) and a temp
 * home, and kodo started there in a private tmux session of 100×30 with a clean environment.
 * `close()` kills the session, removes both folders and closes the servers `serve` was given.
 */
export class KodoTmux {
  readonly workspace: string;
  readonly home: string;
  private session: TmuxSession | undefined;
  private readonly servers: { close(): Promise<void> }[] = [];

  constructor(private readonly options: KodoTmuxOptions = {}) {
    this.workspace = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-tmux-')));
    this.home = mkdtempSync(join(tmpdir(), 'kodo-tmux-home-'));
  }

  /** The environment kodo runs with (also for a headless kodo run beside the terminal one). */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      KODO_HOME: this.home,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      // Folder trust is asked before the UI starts; these tests are about the UI.
      KODO_TRUST_WORKSPACE: 'true',
      // Auto-memory's end-of-session call would take a step of every mock's script; a test of it
      // sets KODO_AUTO_MEMORY to '' (the default: on) or '1'.
      KODO_AUTO_MEMORY: '0',
      ...this.options.env,
      ...extra,
    };
  }

  /** Starts `kodo args…` in the workspace (one per test: a second start replaces the first). */
  start(
    args: string[],
    options: { env?: Record<string, string>; recordOutputTo?: string } = {},
  ): TmuxSession {
    this.session?.kill();
    const quoted = args.map(shellQuote).join(' ');
    this.session = new TmuxSession({
      command: `${shellQuote(process.execPath)} ${shellQuote(KODO_BIN)} ${quoted}`,
      cwd: this.workspace,
      env: this.env(options.env),
      columns: 100,
      rows: 30,
    });
    // Node takes tens of milliseconds to start, so the pipe is in place before kodo's first byte.
    if (options.recordOutputTo) this.session.recordOutput(options.recordOutputTo);
    return this.session;
  }

  /** Starts kodo and waits until its input is up (typing earlier would echo into the cooked line). */
  async startReady(args: string[], options: { env?: Record<string, string> } = {}): Promise<TmuxSession> {
    const session = this.start(args, options);
    await session.waitFor(KODO_READY);
    return session;
  }

  /** A server the test's kodo talks to (a model mock), closed by close(). */
  serve<Server extends { close(): Promise<void> }>(server: Server): Server {
    this.servers.push(server);
    return server;
  }

  /**
   * Kills the terminal and removes the workspace and home at once, then closes the servers given
   * to serve(). Safe to call twice.
   */
  async close(): Promise<void> {
    this.session?.kill();
    this.session = undefined;
    rmSync(this.workspace, { recursive: true, force: true });
    rmSync(this.home, { recursive: true, force: true });
    await Promise.all(this.servers.splice(0).map((server) => server.close()));
  }
}
