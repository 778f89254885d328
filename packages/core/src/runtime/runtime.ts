/**
 * The runtime: the engine assembled once for a front end (terminal UI, headless, ACP, `mcp serve`,
 * the SDK). It owns what lives as long as the run — the model router, the tools, the policy, the
 * hooks' configuration, the MCP servers, extensions, context files, telemetry, the sandbox and the
 * background commands — and hands out sessions (`newSession`, `resumeSession`, `clearSession`,
 * `forkSession`) that share them. `close()` is the one teardown, in one order (docs/architecture.md):
 * SessionEnd hooks → flush recordings → telemetry → background commands → MCP servers.
 */
import type { HookSystem } from '../hooks/hook-system';
import type { SessionEndReason } from '../hooks/types';
import type { McpManager } from '../mcp/index';
import type { CommandSandbox } from '../safety/sandbox/index';
import { Session } from '../session/session';
import type { SessionSummary } from '../session/session-files';
import { SessionStore } from '../session/store';
import type { ToolRegistry } from '../tools/registry';
import { newSessionId } from '../utils/ids';
import { sessionLog } from './assembly';
import type { RuntimeExtensibility } from './extensibility';
import type { BuiltGenerator } from './generator';
import { type RuntimeParts, type RuntimeSession, stderrWarning } from './options';

export class Runtime {
  /** Sessions whose SessionEnd has not fired yet (close() ends them), oldest first. */
  private readonly open: Session[] = [];
  /** The session most recently handed out: MCP schemas follow its model. */
  private current: Session | undefined;
  private closing: Promise<void> | undefined;

  /** Use createRuntime. */
  constructor(private readonly parts: RuntimeParts) {}

  /** `provider:model` as configured (a session may switch with /model). */
  get model(): string {
    return this.parts.model;
  }

  /** The model backend (its `debugLogPath`, `flush()`). */
  get generator(): BuiltGenerator {
    return this.parts.generator;
  }

  /** The tools every session of the run offers (the UI lists them and shows their display names). */
  get tools(): ToolRegistry {
    return this.parts.tools;
  }

  /** The shell sandbox, for the footer (`describe()`); absent when commands run unconfined. */
  get sandbox(): CommandSandbox | undefined {
    return this.parts.sandbox;
  }

  /** The MCP servers (`/mcp`); absent when settings configure none. The runtime stops them at close(). */
  get mcp(): McpManager | undefined {
    return this.parts.mcp;
  }

  /** Extensions, commands, skills and agents found for this run; absent when there are none. */
  get extensibility(): RuntimeExtensibility | undefined {
    return this.parts.extensibility;
  }

  /** Whether the folder's own settings, hooks and files count (decided by the front end). */
  get trusted(): boolean {
    return this.parts.options.trusted;
  }

  /** A new, empty session (its log is created with its first record). */
  async newSession(options: { sessionId?: string } = {}): Promise<RuntimeSession> {
    return this.session(options.sessionId ?? newSessionId());
  }

  /** The recorded session `summary` names, continued under its own id and log. */
  async resumeSession(summary: SessionSummary): Promise<RuntimeSession> {
    return this.session(summary.id, summary);
  }

  /**
   * `/clear` that starts over under a new id, as Gemini CLI does: SessionEnd (`clear`) for `old`,
   * then a new session with SessionStart (`clear`), whose added context becomes its first turn.
   * The run's MCP servers, tools and background commands stay.
   */
  async clearSession(old: Session): Promise<RuntimeSession> {
    await this.endSession(old, 'clear');
    const next = await this.newSession();
    await next.session.start('clear');
    return next;
  }

  /**
   * `/clear` that keeps the session and its id (ACP, whose client names the session): SessionEnd
   * (`clear`), an empty history, SessionStart (`clear`) with its context as the first turn.
   */
  async clearConversation(session: Session, signal?: AbortSignal): Promise<void> {
    await session.end('clear');
    session.replaceHistory([], { reason: 'clear' });
    await session.start('clear', signal);
  }

  /** Fires SessionEnd for a session the front end leaves (`/resume` of another, `/clear`); close() skips it. */
  async endSession(session: Session, reason: SessionEndReason): Promise<void> {
    const index = this.open.indexOf(session);
    if (index < 0) return;
    this.open.splice(index, 1);
    await session.end(reason);
  }

  /**
   * `/fork`: a new session from `from`'s history and settings, under a new id with its own log; it
   * shares the run's model client, tools and MCP servers, and ends at close().
   */
  forkSession(from: Session, options: { onWarning?: (message: string) => void } = {}): Session {
    const sessionId = newSessionId();
    const { cwd, env } = this.parts.options;
    const recorder = new SessionStore({ projectRoot: cwd, env }).newRecorder({
      sessionId,
      onError: options.onWarning ?? this.parts.options.onSessionWarning ?? stderrWarning,
    });
    const forked = from.fork({ sessionId, recorder });
    this.open.push(forked);
    this.current = forked;
    return forked;
  }

  /** @internal The model MCP tool schemas are shaped for: the current session's. */
  currentModel(): string {
    return this.current?.model ?? this.parts.model;
  }

  /**
   * Ends the run, once, in one order: SessionEnd hooks of every session still open (they may read
   * the transcript and report to telemetry), then recordings are flushed, telemetry is shut down
   * (so it exports the hook runs), background commands are stopped, and the MCP servers last
   * (SessionEnd hooks and the shutdown may still need them). A step that fails does not skip the
   * later ones; the first failure is thrown at the end.
   */
  close(): Promise<void> {
    this.closing ??= this.teardown();
    return this.closing;
  }

  private async teardown(): Promise<void> {
    const failures: unknown[] = [];
    const step = async (run: () => Promise<unknown> | undefined) => {
      try {
        await run();
      } catch (error) {
        failures.push(error);
      }
    };
    const ending = this.open.splice(0);
    await step(() => Promise.all(ending.map((session) => session.end('exit'))));
    await step(() => this.parts.generator.flush());
    await step(() => this.parts.telemetry?.shutdown());
    await step(() => this.parts.jobs.dispose());
    await step(() => this.parts.mcp?.dispose());
    if (failures.length > 0) throw failures[0];
  }

  private async session(sessionId: string, resume?: SessionSummary): Promise<RuntimeSession> {
    if (this.closing) throw new Error('The runtime is closed.');
    const { options } = this.parts;
    const log = await sessionLog({
      cwd: options.cwd,
      env: options.env,
      sessionId,
      tempDir: this.parts.tempDir,
      ...(resume ? { resume } : {}),
      onWarning: options.onSessionWarning ?? stderrWarning,
    });
    const session = new Session({
      ...this.parts.sessionOptions,
      sessionId,
      recorder: log.recorder,
      ...this.hooksFor(sessionId, log.recorder),
      ...(log.resumed
        ? {
            history: log.resumed.history,
            restored: {
              ...(log.resumed.stats ? { stats: log.resumed.stats } : {}),
              ...(log.resumed.todos ? { todos: log.resumed.todos } : {}),
            },
          }
        : {}),
    });
    this.open.push(session);
    this.current = session;
    return { session, recorder: log.recorder, ...(log.resumed ? { resumed: log.resumed } : {}) };
  }

  /** A session's hooks: the run's configuration, run under the session's id and transcript. */
  private hooksFor(sessionId: string, transcript: { readonly file: string }): { hooks?: HookSystem } {
    const { hooks, options } = this.parts;
    if (!hooks) return {};
    return {
      hooks: new hooks.HookSystem({
        config: hooks.config,
        cwd: options.cwd,
        sessionId,
        env: options.env,
        plansDir: this.parts.plansDir,
        // The session log (created with its first record), for hooks that read the conversation.
        transcriptPath: () => transcript.file,
        ...(options.onHookFeedback ? { onFeedback: options.onHookFeedback } : {}),
        ...(this.parts.hookSandbox ? { sandbox: this.parts.hookSandbox } : {}),
      }),
    };
  }
}
