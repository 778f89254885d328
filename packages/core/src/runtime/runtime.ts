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
import type { InputSources } from '../input/types';
import type { McpManager } from '../mcp/index';
import type { CommandSandbox } from '../safety/sandbox/index';
import type { SessionRecorder } from '../session/recorder';
import type { LoadedSession } from '../session/resume';
import { Session } from '../session/session';
import type { SessionSummary } from '../session/session-files';
import { SessionStore } from '../session/store';
import type { ToolRegistry } from '../tools/registry';
import { newSessionId } from '../utils/ids';
import { resumedSessionLog } from './assembly';
import type { RuntimeExtensibility } from './extensibility';
import type { BuiltGenerator } from './generator';
import { type RuntimeParts, type RuntimeSession, stderrWarning } from './options';
import { RuntimeSetupError } from './setup-error';

export class Runtime {
  /** Sessions whose SessionEnd has not fired yet (close() ends them), oldest first. */
  private readonly open: Session[] = [];
  /** The session most recently handed out: MCP schemas follow its model. */
  private current: Session | undefined;
  private closing: Promise<void> | undefined;

  /** Use createRuntime (or the SDK's createRuntimeFromOptions, which reads nothing). */
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

  /**
   * Where the input pipeline (`resolveInput`, `listCommands`) finds the names a line may use:
   * custom commands, skills and MCP prompts. Read per line, so an MCP server that connects late,
   * or one that goes away, shows at once.
   */
  inputSources(): InputSources {
    return {
      commands: () => this.parts.extensibility?.loaded.commands ?? [],
      skills: () => this.parts.extensibility?.loaded.skills ?? [],
      ...(this.parts.mcp ? { mcp: this.parts.mcp } : {}),
    };
  }

  /** Whether the folder's own settings, hooks and files count (decided by the front end). */
  get trusted(): boolean {
    return this.parts.options.trusted;
  }

  /** A new, empty session (its log is created with its first record). */
  async newSession(options: { sessionId?: string } = {}): Promise<RuntimeSession> {
    return this.newSessionNow(options);
  }

  /**
   * newSession() for the SDK's `createSession`, whose API is synchronous: a new session needs
   * nothing awaited (its log is created with its first record).
   * @internal
   */
  newSessionNow(options: { sessionId?: string } = {}): RuntimeSession {
    this.refuseWhenClosed();
    const sessionId = options.sessionId ?? newSessionId();
    const recorder = this.recorderFor(sessionId);
    return this.build(sessionId, recorder ? { recorder } : {});
  }

  /** The recorded session `summary` names, continued under its own id and log. */
  async resumeSession(summary: SessionSummary): Promise<RuntimeSession> {
    this.refuseWhenClosed();
    const { options } = this.parts;
    if (this.parts.sessionLogs === 'none') {
      throw new RuntimeSetupError('This runtime keeps no session logs: there is nothing to resume.', 'input');
    }
    const log = await resumedSessionLog({
      cwd: options.cwd,
      env: options.env,
      tempDir: this.parts.tempDir,
      resume: summary,
      onWarning: options.onSessionWarning ?? stderrWarning,
    });
    return this.build(summary.id, log);
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
    const recorder = this.recorderFor(sessionId, options.onWarning);
    const forked = from.fork({ sessionId, ...(recorder ? { recorder } : {}) });
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

  private refuseWhenClosed(): void {
    if (this.closing) throw new Error('The runtime is closed.');
  }

  /** A new session's log (created with its first record); none when the runtime keeps no logs. */
  private recorderFor(sessionId: string, onWarning?: (message: string) => void): SessionRecorder | undefined {
    if (this.parts.sessionLogs === 'none') return undefined;
    const { cwd, env, onSessionWarning } = this.parts.options;
    return new SessionStore({ projectRoot: cwd, env }).newRecorder({
      sessionId,
      onError: onWarning ?? onSessionWarning ?? stderrWarning,
    });
  }

  /** Builds a session on the run's parts and keeps it until it ends. */
  private build(
    sessionId: string,
    log: { recorder?: SessionRecorder; resumed?: LoadedSession },
  ): RuntimeSession {
    const { recorder, resumed } = log;
    const session = new Session({
      ...this.parts.sessionOptions,
      approvals: this.parts.options.approvals,
      // The runtime ends its sessions, in its one order: a session of its own (the SDK's
      // createSession) closes it; any other refuses, rather than tear down half of a shared run.
      disposeRun: this.parts.sessionOptions.disposeRun ?? refuseSessionDispose,
      sessionId,
      ...(recorder ? { recorder } : {}),
      ...this.hooksFor(sessionId, recorder),
      ...(resumed
        ? {
            history: resumed.history,
            restored: {
              ...(resumed.stats ? { stats: resumed.stats } : {}),
              ...(resumed.todos ? { todos: resumed.todos } : {}),
            },
          }
        : {}),
    });
    this.open.push(session);
    this.current = session;
    return { session, ...(recorder ? { recorder } : {}), ...(resumed ? { resumed } : {}) };
  }

  /** A session's hooks: the run's configuration, run under the session's id and transcript. */
  private hooksFor(sessionId: string, transcript?: { readonly file: string }): { hooks?: HookSystem } {
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
        ...(transcript ? { transcriptPath: () => transcript.file } : {}),
        ...(options.onHookFeedback ? { onFeedback: options.onHookFeedback } : {}),
        ...(this.parts.hookSandbox ? { sandbox: this.parts.hookSandbox } : {}),
      }),
    };
  }
}

/** `dispose()` of a session a shared runtime issued: its background commands, telemetry and hooks are the runtime's. */
async function refuseSessionDispose(): Promise<void> {
  throw new Error(
    'This session belongs to a runtime, which ends it: call runtime.close() (or runtime.endSession(session, reason) to end only this session).',
  );
}
