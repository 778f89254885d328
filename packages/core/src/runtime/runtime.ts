/**
 * The runtime: the engine assembled once for a front end (terminal UI, headless, ACP, `mcp serve`,
 * the SDK). It owns what lives as long as the run — the model router, the tools, the policy, the
 * hooks' configuration, the MCP servers, extensions, context files, telemetry, the sandbox and the
 * background commands — and hands out sessions (`newSession`, `resumeSession`, `clearSession`,
 * `forkSession`) that share them. `close()` is the one teardown, in one order (docs/architecture.md):
 * SessionEnd hooks → flush recordings → telemetry → background commands → MCP servers.
 */
import { join } from 'node:path';
import { geminiHome, kodoHome } from '../config/paths';
import { projectTempDir } from '../config/project';
import type { Settings, SettingsScope } from '../config/settings';
import { ProjectMemory } from '../context/memory-files';
import type { HookConfig } from '../hooks/config';
import type { HookSystem } from '../hooks/hook-system';
import { loadHookSystem } from '../hooks/lazy';
import type { HookFeedback, SessionEndReason } from '../hooks/types';
import type { McpManager } from '../mcp/index';
import type { CommandSandbox } from '../safety/sandbox/index';
import type { PolicyEngine } from '../scheduler/policy/engine';
import { loadPolicyEngine, namedPolicyPaths, PolicyLoadError } from '../scheduler/policy/sources';
import type { Approvals } from '../scheduler/scheduler';
import type { SessionRecorder } from '../session/recorder';
import type { LoadedSession } from '../session/resume';
import { Session, type SessionOptions } from '../session/session';
import type { SessionSummary } from '../session/session-files';
import { SessionStore } from '../session/store';
import type { Telemetry } from '../telemetry/telemetry';
import { lazyBuiltinTools } from '../tools/builtin/lazy';
import { cleanupInterruptedWrites } from '../tools/interrupted-writes';
import { ToolRegistry } from '../tools/registry';
import { BackgroundJobs } from '../tools/shell/background-jobs';
import type { PseudoTerminal } from '../tools/shell/pseudo-terminal';
import type { ExternalTerminals } from '../tools/shell/terminal';
import type { TextFileAccess } from '../tools/text-files';
import type { ToolContext } from '../tools/tool';
import { hasNativeWebSearch } from '../tools/web/search-api';
import { Workspace } from '../tools/workspace';
import { sanitizeEnv } from '../utils/env';
import { newSessionId } from '../utils/ids';
import {
  hookConfig,
  mcpInstructionsBlock,
  refuseUnpricedBudget,
  resolveOrFail,
  sessionLog,
  skillsOption,
  telemetryFor,
  withAllowedServers,
  withAllowedTools,
} from './assembly';
import { checkEnforcedAuth, providerTypeOf } from './auth';
import { loadRuntimeExtensibility, type RuntimeExtensibility, subagentsFrom } from './extensibility';
import type { RuntimeFlags } from './flags';
import { type BuiltGenerator, buildGenerator, modelTimeouts } from './generator';
import { startMcpServers } from './mcp-servers';
import { safetyOptions } from './safety';
import { RuntimeSetupError } from './setup-error';
import { workspaceRoots } from './workspace-roots';

const SHELL_INACTIVITY_TIMEOUT_MS = 300_000;

export interface RuntimeOptions {
  /** Command-line choices (the CLI's parsed arguments); none for the SDK. */
  flags?: RuntimeFlags;
  settings: Settings;
  /** The settings files by scope (`loadSettings().scopes`), so project hooks can be told apart. */
  settingsScopes?: SettingsScope[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Whether the folder is trusted, decided by the front end (its trust gate, the SDK's caller).
   * An untrusted folder gets no context files, policies, hooks, stdio MCP servers or approval mode of its own.
   */
  trusted: boolean;
  /** The first session's id: it names the `--debug` log, the plans folder and telemetry's session. Default: a new one. */
  sessionId?: string;
  /**
   * Who answers approval questions, stated by the front end: the UI's dialog, the editor's
   * permission request (ACP), an MCP client's elicitation, or nobody (headless).
   */
  approvals: Approvals;
  /** `false`: custom slash commands are not loaded (a headless run whose prompt is not one). Default true. */
  customCommands?: boolean;
  /** Puts `ask_user`'s questions to the person (the interactive UI); headless passes none. */
  askUser?: ToolContext['askUser'];
  /** Policy file errors and warnings, one line each (default: stderr). */
  onPolicyFeedback?: (message: string) => void;
  /** Whether hooks from the project's settings may run (default: whether the folder is trusted). */
  allowProjectHooks?: boolean;
  /** Hook messages and failures (default: stderr, as `[INFO] …` / `[WARNING] …`). */
  onHookFeedback?: (feedback: HookFeedback) => void;
  /** Session log problems: a skipped torn record, a failed write (default: stderr `[WARNING] …`). */
  onSessionWarning?: (message: string) => void;
  /**
   * MCP servers: `wait` returns once each has connected or failed within its timeout (the first
   * request declares every tool); `background` (the default) returns at once.
   */
  mcpDiscovery?: 'wait' | 'background';
  /**
   * MCP servers that failed or went away, budgets that cannot be enforced. Default: stderr
   * `[WARNING] …` when nobody answers approvals (headless); nothing for an interactive front end,
   * which subscribes to `Runtime.mcp` instead.
   */
  onWarning?: (message: string) => void;
  /** Where file tools read and write text (an editor's buffers over ACP); default: the disk. */
  textFiles?: TextFileAccess;
  /** A model backend of the caller's in place of the provider's (a tools-only session needs no key). */
  generator?: (model: string) => BuiltGenerator;
  /** Where foreground shell commands run (an editor's terminal over ACP); default: local processes. */
  terminals?: ExternalTerminals;
  /** Runs foreground shell commands in a pseudo-terminal (the interactive UI); default: pipes. */
  pseudoTerminal?: PseudoTerminal;
  /** Who kodo says it is to MCP servers. */
  clientInfo?: { name: string; version: string };
  /** The build's key for the extensions' discovery snapshot. */
  buildKey?: string;
}

/** A session the runtime handed out, with what its front end shows at the start. */
export interface RuntimeSession {
  session: Session;
  /** Writes the session log (`~/.kodo/sessions/<project>/`). */
  recorder: SessionRecorder;
  /** The recorded session this one continues, when resuming (its messages, for replaying). */
  resumed?: LoadedSession;
}

/** What createRuntime assembled; the Runtime holds it. */
interface RuntimeParts {
  options: RuntimeOptions;
  model: string;
  generator: BuiltGenerator;
  tools: ToolRegistry;
  policy: PolicyEngine;
  memory: ProjectMemory;
  tempDir: string;
  plansDir: string;
  jobs: BackgroundJobs;
  sandbox?: CommandSandbox;
  hookSandbox?: CommandSandbox;
  hooks?: { config: HookConfig; HookSystem: typeof HookSystem };
  telemetry?: Telemetry;
  extensibility?: RuntimeExtensibility;
  /** Everything a Session is built with but its id, record, hooks and history. */
  sessionOptions: Omit<SessionOptions, 'sessionId' | 'recorder' | 'hooks' | 'history' | 'restored'>;
  /** Set once the servers are started (they read the model of the session in use). */
  mcp?: McpManager;
}

const stderrWarning = (message: string) => process.stderr.write(`[WARNING] ${message}\n`);

/**
 * Assembles the engine from flags, settings and the environment: the model backend, the tools and
 * what they may touch, policy, hooks, MCP servers, approval, limits. Setup problems throw
 * RuntimeSetupError (its `failure` says which kind).
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { settings, env, cwd, trusted } = options;
  const flags: RuntimeFlags = options.flags ?? {};
  const firstSessionId = options.sessionId ?? newSessionId();
  const onWarning = options.onWarning ?? stderrWarning;
  // What users bring (docs/extending.md): its MCP servers and excluded tools join the settings.
  const extensibility = await loadRuntimeExtensibility({
    extensions: flags.extensions,
    settings,
    ...(options.settingsScopes ? { settingsScopes: options.settingsScopes } : {}),
    cwd,
    env,
    trusted,
    ...(options.customCommands === false ? { commands: false } : {}),
    onWarning,
    ...(options.buildKey ? { buildKey: options.buildKey } : {}),
  });
  const effectiveSettings = extensibility?.settings ?? settings;
  const config = resolveOrFail(flags, env, effectiveSettings, { trusted });
  const injected = options.generator?.(config.model);
  // An injected generator (the tools-only session of `kodo mcp serve`) calls no model to check.
  if (!injected)
    checkEnforcedAuth(effectiveSettings, { model: config.model, env, providers: config.providers });
  const generator =
    injected ??
    (await buildGenerator({
      fakeResponses: flags.fakeResponses,
      fakeResponsesStrict: flags.fakeResponsesStrict ?? true,
      recordResponses: flags.recordResponses,
      debug: flags.debug ?? false,
      sessionId: firstSessionId,
      env,
      model: config.model,
      providers: config.providers,
      timeouts: modelTimeouts(settings),
      sampling: config.sampling,
      effort: config.effort,
      effortOverride: config.effortOverride,
      onWarning,
    }));
  // `provider:model` with the provider's default filled in; the router reads it on every request.
  const model = generator.model;
  const tempDir = projectTempDir(cwd, env);
  // Temp files of edits a killed run left next to their targets (see interrupted-writes.ts).
  void cleanupInterruptedWrites(tempDir);
  const memory = new ProjectMemory({
    fileNames: config.memory.fileNames,
    globalDirs: [kodoHome(env), geminiHome(env)],
    workspaceRoots: [cwd],
    boundaryMarkers: config.memory.boundaryMarkers,
    includeProjectFiles: trusted,
    ...(extensibility ? { extraGlobalFiles: extensibility.contextFiles } : {}),
  });
  await memory.load();
  const tools = new ToolRegistry(lazyBuiltinTools());
  // web_search is offered where it can answer: a configured search API, or a provider that
  // searches itself (Gemini models have google_web_search).
  if (!config.toolContext.webSearch && !hasNativeWebSearch(providerTypeOf(model, env, config.providers))) {
    tools.unregister('web_search');
  }
  const skills = await skillsOption(extensibility, tools);
  const roots = workspaceRoots(cwd, flags, settings, env);
  // One plans folder for the run: plan files written before a /clear stay where the policy allows them.
  const plansDir = join(tempDir, firstSessionId, 'plans');
  const policy = await loadPolicyEngine({
    cwd,
    env,
    ...namedPolicyPaths({
      flags,
      settings: options.settingsScopes?.map(({ scope, settings: own }) => ({ scope, ...own })) ?? [
        { scope: 'user', ...settings },
      ],
    }),
    toolSettings: withAllowedTools(config.toolPolicy, flags.allowedTools),
    ...(extensibility?.policyDirs.length ? { extensionPolicyDirs: extensibility.policyDirs } : {}),
    plansDir,
    onFeedback: options.onPolicyFeedback ?? stderrWarning,
    includeWorkspacePolicies: trusted,
  }).catch((error: unknown) => {
    // A policy that cannot be loaded is a configuration error: nothing runs without it.
    if (error instanceof PolicyLoadError) throw new RuntimeSetupError(error.message, 'config');
    throw error;
  });
  const { hookSandbox, ...safety } = await safetyOptions({
    sandboxFlag: flags.sandbox === true,
    sandboxSetting: config.sandboxSetting,
    ...(config.checkpointing ? { checkpointing: config.checkpointing } : {}),
    cwd,
    roots,
    env,
    interactive: options.approvals.interactive,
  });
  refuseUnpricedBudget(config, model, generator.models);
  const telemetry = await telemetryFor(config.telemetry, {
    sessionId: firstSessionId,
    interactive: options.approvals.interactive,
  });
  const onHookFeedback =
    options.onHookFeedback ??
    ((feedback: HookFeedback) =>
      process.stderr.write(`[${feedback.severity === 'info' ? 'INFO' : 'WARNING'}] ${feedback.message}\n`));
  const hooks = hookConfig({
    settings,
    settingsScopes: options.settingsScopes,
    extensionHooks: extensibility?.hookSources ?? [],
    allowProjectHooks: options.allowProjectHooks ?? trusted,
    onFeedback: onHookFeedback,
  });
  // The hook runner loads only when hooks are configured.
  const hookModule = hooks ? await loadHookSystem() : undefined;
  const { outputThresholdChars, ...fromSettings } = config.session;
  const outputLimit = { thresholdChars: outputThresholdChars, spillDir: tempDir };
  // Background commands outlive a /clear (they belong to the run) and end at close().
  const jobs = new BackgroundJobs({ logDir: join(tempDir, 'background-processes') });
  const parts: RuntimeParts = {
    options: { ...options, onHookFeedback },
    model,
    generator,
    tools,
    policy,
    memory,
    tempDir,
    plansDir,
    jobs,
    ...(safety.sandbox ? { sandbox: safety.sandbox } : {}),
    ...(hookSandbox ? { hookSandbox } : {}),
    ...(hooks && hookModule ? { hooks: { config: hooks, HookSystem: hookModule.HookSystem } } : {}),
    ...(telemetry ? { telemetry } : {}),
    ...(extensibility ? { extensibility } : {}),
    sessionOptions: {
      ...(telemetry ? { telemetry } : {}),
      systemAddendum: () => mcpInstructionsBlock(parts.mcp),
      generator: generator.generator,
      ...(generator.contextWindows ? { contextWindows: generator.contextWindows } : {}),
      ...(generator.models ? { models: generator.models } : {}),
      model,
      tools,
      toolContext: {
        workspace: new Workspace({ roots, tempDir }),
        env: sanitizeEnv(env),
        shellInactivityTimeoutMs: SHELL_INACTIVITY_TIMEOUT_MS,
        memoryFilePath: join(kodoHome(env), 'KODO.md'),
        plansDir,
        shell: { jobs, outputLimit, ...(safety.sandbox ? { sandbox: safety.sandbox } : {}) },
        ...(options.askUser ? { askUser: options.askUser } : {}),
        ...config.toolContext,
        ...(options.textFiles ? { textFiles: options.textFiles } : {}),
        ...(options.terminals ? { terminals: options.terminals } : {}),
        ...(options.pseudoTerminal ? { pseudoTerminal: options.pseudoTerminal } : {}),
      },
      memory,
      ...skills,
      ...(extensibility ? { agents: subagentsFrom(extensibility.loaded.agents) } : {}),
      policy,
      ...fromSettings,
      outputLimit,
      ...(options.approvals.interactive ? { confirm: options.approvals.confirm } : {}),
      ...safety,
      budgets: config.budgets,
    },
  };
  const runtime = new Runtime(parts);
  const warn = options.onWarning ?? (options.approvals.interactive ? undefined : stderrWarning);
  parts.mcp = await startMcpServers({
    settings: withAllowedServers(effectiveSettings, flags.allowedMcpServerNames),
    env,
    cwd,
    trusted,
    tools,
    policy,
    model: () => runtime.currentModel(),
    clientInfo: options.clientInfo ?? { name: 'kodo', version: '0.0.0' },
    discovery: options.mcpDiscovery ?? 'background',
    ...(warn ? { onWarning: warn } : {}),
  });
  return runtime;
}

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
    const { context } = await next.session.start('clear');
    if (context) next.session.addContext([{ text: context }]);
    return next;
  }

  /**
   * `/clear` that keeps the session and its id (ACP, whose client names the session): SessionEnd
   * (`clear`), an empty history, SessionStart (`clear`) with its context as the first turn.
   */
  async clearConversation(session: Session, signal?: AbortSignal): Promise<void> {
    await session.end('clear');
    session.replaceHistory([], { reason: 'clear' });
    const { context } = await session.start('clear', signal);
    if (context) session.addContext([{ text: context }]);
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
