/**
 * kodo as an ACP agent: the protocol's agent side on one connection. Each ACP session is a kodo
 * Session from a runtime of its own, assembled as the CLI assembles one for its folder (that
 * folder's trust and settings, policy, hooks, MCP, the session log), with the editor as the
 * person: approvals go to it, file tools read and write through it when it offers that, and the
 * editor's MCP servers join the configured ones.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import {
  type InputSources,
  type LoadedSession,
  type McpServerSettings,
  newSessionId,
  type Runtime,
  resolveInput,
  runShellLine,
  type Session,
  SessionStore,
  type SessionSummary,
  type Settings,
  type SettingsScope,
} from '@kodo/core/engine';
import type { CliArgs } from '../shared/args';
import { ExitCode, FatalError } from '../shared/exit-codes';
import { asFatalError, createCliRuntime } from '../shared/runtime-setup';
import { gateFolderTrust } from '../shared/trust-gate';
import { KODO_VERSION } from '../shared/version';
import { CallIds } from './call-ids';
import { availableCommands, runSessionCommand } from './commands';
import { editorTextFiles } from './editor-files';
import { EditorTerminals } from './editor-terminal';
import { editorConfirmHandler } from './permissions';
import { promptLine } from './prompt-content';
import { replayUpdates } from './replay';
import { applyConfigOption, applyMode, configOptions, modeState, stateUpdates } from './session-config';
import { deleteRecordedSession, listRecordedSessions } from './session-list';
import { runPromptTurn } from './turn';

export { ACP_MODES } from './session-config';

/** Where an API key sent with `authenticate` goes, by provider. */
const KEY_VARIABLES: Record<string, string> = {
  gemini: 'GEMINI_API_KEY',
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

export const AUTH_METHODS: acp.AuthMethod[] = [
  {
    id: 'api-key',
    name: 'API key',
    description:
      'Use the key in the environment kodo starts with (GEMINI_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY), or send one as _meta.apiKey (with _meta.provider: gemini | openai | anthropic).',
  },
];

export interface AcpAgentOptions {
  args: CliArgs;
  /** The launch folder's settings (each session reads its own folder's when it opens). */
  settings: Settings;
  settingsScopes?: SettingsScope[];
  /** kodo's environment; `authenticate` may add a key to it (in memory only). */
  env: NodeJS.ProcessEnv;
  /** Diagnostics (stderr: stdout carries only the protocol). */
  log: (message: string) => void;
}

interface OpenSession {
  /** The session's own runtime: its folder's settings, MCP servers (the editor's too) and hooks. */
  runtime: Runtime;
  session: Session;
  /** The recorded session it continues (session/load replays its messages). */
  resumed?: LoadedSession;
  cwd: string;
  calls: CallIds;
  terminals?: EditorTerminals;
  /** The title the client has been told (the first prompt, as the session list shows it). */
  title?: string;
  running?: { controller: AbortController; done: Promise<unknown> };
}

/** A session's title: its first prompt on one line, as `kodo --list-sessions` shows it. */
const TITLE_CHARS = 100;

export class AcpAgent {
  private clientCapabilities: acp.ClientCapabilities = {};
  private readonly sessions = new Map<string, OpenSession>();
  private readonly env: NodeJS.ProcessEnv;
  /** Keys `authenticate` added (logout removes them). */
  private readonly givenKeys = new Set<string>();
  /** The project folders this connection has used: where `session/delete` looks. */
  private readonly cwds = new Set<string>();

  constructor(private readonly options: AcpAgentOptions) {
    this.env = { ...options.env };
    this.cwds.add(process.cwd());
  }

  /** The handlers, on a fresh SDK agent app. */
  app(): acp.AgentApp {
    return acp
      .agent({ name: 'kodo' })
      .onRequest('initialize', ({ params }) => this.initialize(params))
      .onRequest('authenticate', ({ params }) => this.authenticate(params))
      .onRequest('logout', () => this.logout())
      .onRequest('session/new', ({ params, client }) => this.newSession(params, client))
      .onRequest('session/load', ({ params, client }) => this.loadSession(params, client, { replay: true }))
      .onRequest('session/resume', ({ params, client }) =>
        this.loadSession({ ...params, mcpServers: params.mcpServers ?? [] }, client, { replay: false }),
      )
      .onRequest('session/list', ({ params }) =>
        listRecordedSessions(params, { defaultCwd: process.cwd(), env: this.env }),
      )
      .onRequest('session/close', ({ params }) => this.closeSession(params.sessionId))
      .onRequest('session/delete', ({ params }) => this.deleteSession(params.sessionId))
      .onRequest('session/prompt', ({ params, client }) => this.prompt(params, client))
      .onNotification('session/cancel', ({ params }) => this.cancel(params.sessionId))
      .onRequest('session/set_mode', ({ params, client }) => this.setMode(params, client))
      .onRequest('session/set_config_option', ({ params, client }) => this.setConfigOption(params, client));
  }

  initialize(params: acp.InitializeRequest): acp.InitializeResponse {
    this.clientCapabilities = params.clientCapabilities ?? {};
    return {
      // The client's version when it is one kodo speaks, else kodo's latest (only 1 exists).
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: true, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
        auth: { logout: {} },
      },
      authMethods: AUTH_METHODS,
      agentInfo: { name: 'kodo', title: 'kodo', version: KODO_VERSION },
    };
  }

  authenticate(params: acp.AuthenticateRequest): acp.AuthenticateResponse {
    if (params.methodId !== 'api-key') {
      throw acp.RequestError.invalidParams(undefined, `Unknown authentication method: ${params.methodId}`);
    }
    const meta = params._meta ?? {};
    const key = meta.apiKey;
    if (key === undefined) return {};
    const provider = typeof meta.provider === 'string' ? meta.provider : 'gemini';
    const variable = KEY_VARIABLES[provider];
    if (typeof key !== 'string' || key === '' || !variable) {
      throw acp.RequestError.invalidParams(
        undefined,
        '_meta.apiKey must be a key and _meta.provider one of gemini, openai, anthropic',
      );
    }
    // Kept in this process's memory for the sessions it starts; never written or logged.
    this.env[variable] = key;
    this.givenKeys.add(variable);
    return {};
  }

  /** Forgets the keys `authenticate` gave; sessions started later need a key again. */
  logout(): acp.LogoutResponse {
    for (const variable of this.givenKeys) {
      if (this.options.env[variable] === undefined) delete this.env[variable];
      else this.env[variable] = this.options.env[variable];
    }
    this.givenKeys.clear();
    return {};
  }

  async newSession(params: acp.NewSessionRequest, client: acp.AgentContext): Promise<acp.NewSessionResponse> {
    const cwd = checkedCwd(params.cwd);
    const sessionId = newSessionId();
    const open = await this.open({ sessionId, cwd, mcpServers: params.mcpServers, client });
    await open.session.start('startup');
    this.announceCommands(sessionId, open, client);
    return { sessionId, ...this.sessionState(open) };
  }

  /**
   * `session/load` (the conversation so far is replayed as updates before the answer) and
   * `session/resume` (the same without the replay: the client still shows it).
   */
  async loadSession(
    params: acp.LoadSessionRequest,
    client: acp.AgentContext,
    how: { replay: boolean },
  ): Promise<acp.LoadSessionResponse> {
    const cwd = checkedCwd(params.cwd);
    const summary = new SessionStore({ projectRoot: cwd, env: this.env }).findById(params.sessionId);
    if (!summary) throw acp.RequestError.resourceNotFound(params.sessionId);
    await this.close(params.sessionId);
    const open = await this.open({
      sessionId: summary.id,
      cwd,
      mcpServers: params.mcpServers,
      client,
      resume: summary,
    });
    const notify = (update: acp.SessionUpdate) =>
      client.notify('session/update', { sessionId: summary.id, update });
    if (how.replay) {
      for (const update of replayUpdates(open.resumed?.messages ?? [], open.runtime.tools, cwd)) {
        await notify(update);
      }
    }
    open.title = summary.title;
    await notify(sessionInfoUpdate(summary.title, summary.lastUpdated));
    await open.session.start('resume');
    this.announceCommands(summary.id, open, client);
    return this.sessionState(open);
  }

  /** `session/close`: the running turn stops (as on cancel), then the session ends. */
  async closeSession(sessionId: string): Promise<acp.CloseSessionResponse> {
    this.session(sessionId);
    await this.close(sessionId);
    return {};
  }

  /** `session/delete`: closes it if open and deletes its recording. */
  async deleteSession(sessionId: string): Promise<acp.DeleteSessionResponse> {
    await this.close(sessionId);
    if (!deleteRecordedSession(sessionId, { cwds: this.cwds, env: this.env })) {
      throw acp.RequestError.resourceNotFound(sessionId);
    }
    return {};
  }

  async prompt(params: acp.PromptRequest, client: acp.AgentContext): Promise<acp.PromptResponse> {
    const open = this.session(params.sessionId);
    // One turn at a time: a new prompt stops the one still running.
    if (open.running) {
      open.running.controller.abort();
      await open.running.done.catch(() => undefined);
    }
    const controller = new AbortController();
    const turn = this.runTurn(params, open, client, controller.signal);
    open.running = { controller, done: turn };
    try {
      return await turn;
    } finally {
      if (open.running?.controller === controller) open.running = undefined;
    }
  }

  private async runTurn(
    params: acp.PromptRequest,
    open: OpenSession,
    client: acp.AgentContext,
    signal: AbortSignal,
  ): Promise<acp.PromptResponse> {
    const { session } = open;
    const line = promptLine(params.prompt);
    const text = line.text;
    const say = (message: string) =>
      client.notify('session/update', {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: message } },
      });
    // One meaning in every front end: core's input pipeline decides what the prompt is.
    const resolved = await resolveInput(line, {
      frontEnd: 'acp',
      session,
      sources: inputSources(open.runtime),
      signal,
    });
    if (resolved.kind === 'error') throw acp.RequestError.invalidParams(undefined, resolved.message);
    if (resolved.kind === 'session_command') {
      await say(await runSessionCommand(resolved, { session, runtime: open.runtime }, signal));
      return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
    }
    if (resolved.kind === 'shell') {
      const result = await runShellLine(session, resolved.command, { frontEnd: 'acp', signal });
      await say(
        result.ran ? result.output : `Shell command '${resolved.command}' was not run: ${result.output}`,
      );
      return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
    }
    for (const skipped of resolved.skipped) await say(`Not attached: ${skipped}\n`);
    try {
      return await runPromptTurn(
        {
          sessionId: params.sessionId,
          client,
          session,
          tools: open.runtime.tools,
          cwd: open.cwd,
          calls: open.calls,
          ...(open.terminals ? { terminals: open.terminals } : {}),
        },
        resolved.prompt,
        signal,
      );
    } finally {
      await this.afterTurn(params.sessionId, open, client, { text });
    }
  }

  /** What a turn changed: the title (the first prompt) and the activity time. (Mode changes are events.) */
  private async afterTurn(
    sessionId: string,
    open: OpenSession,
    client: acp.AgentContext,
    turn: { text: string },
  ): Promise<void> {
    const notify = (update: acp.SessionUpdate) =>
      client.notify('session/update', { sessionId, update }).catch(() => undefined);
    // Titled once, by the first prompt with words (an image alone gives none).
    const title = open.title === undefined ? titleOf(turn.text) : undefined;
    await notify(sessionInfoUpdate(title, new Date()));
    if (title) open.title = title;
  }

  /** `session/cancel`: stops the model and the running tools (their process groups); the prompt answers `cancelled`. */
  cancel(sessionId: string): void {
    this.sessions.get(sessionId)?.running?.controller.abort();
  }

  async setMode(
    params: acp.SetSessionModeRequest,
    client: acp.AgentContext,
  ): Promise<acp.SetSessionModeResponse> {
    // The client hears the new mode through the session's approval_mode_changed event (open()).
    applyMode(this.session(params.sessionId).session, params.modeId);
    return {};
  }

  async setConfigOption(
    params: acp.SetSessionConfigOptionRequest,
    client: acp.AgentContext,
  ): Promise<acp.SetSessionConfigOptionResponse> {
    const { session } = this.session(params.sessionId);
    applyConfigOption(session, params);
    return { configOptions: configOptions(session) };
  }

  /** Ends every session, each by its runtime's one teardown (SessionEnd hooks first, MCP servers last). */
  async dispose(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private async close(sessionId: string): Promise<void> {
    const open = this.sessions.get(sessionId);
    if (!open) return;
    this.sessions.delete(sessionId);
    open.running?.controller.abort();
    await open.running?.done.catch(() => undefined);
    await open.runtime.close();
  }

  private session(sessionId: string): OpenSession {
    const open = this.sessions.get(sessionId);
    if (!open) throw acp.RequestError.resourceNotFound(sessionId);
    return open;
  }

  private async open(request: {
    sessionId: string;
    cwd: string;
    mcpServers: acp.McpServer[];
    client: acp.AgentContext;
    resume?: SessionSummary;
  }): Promise<OpenSession> {
    const { sessionId, cwd, client } = request;
    const { log } = this.options;
    let runtime: Runtime | undefined;
    const textFiles = editorTextFiles({ client, sessionId, cwd, capabilities: this.clientCapabilities.fs });
    const terminals = this.clientCapabilities.terminal ? new EditorTerminals(client, sessionId) : undefined;
    const calls = new CallIds();
    this.cwds.add(cwd);
    let opened: { session: Session; resumed?: LoadedSession };
    try {
      // The session's folder decides, as `kodo -p` there would: its trust, then its settings
      // (user and project when trusted, the user's alone when restricted), not the launch folder's.
      // Its own copy of the environment: the folder's `.env` (read by the gate) is this session's
      // alone, not every later session's in other folders.
      const env = { ...this.env };
      const gate = await gateFolderTrust({ cwd, env, args: this.options.args, interactive: false });
      if (!gate.ok) throw acp.RequestError.invalidParams(undefined, gate.message);
      if (gate.notice) log(gate.notice);
      runtime = await createCliRuntime({
        args: this.options.args,
        settings: withClientServers(gate.settings.merged, request.mcpServers),
        settingsScopes: gate.settings.scopes,
        trusted: gate.trusted,
        cwd,
        env,
        sessionId,
        approvals: {
          interactive: true,
          confirm: editorConfirmHandler(() => ({ sessionId, client, tools: runtime!.tools, cwd, calls })),
        },
        mcpDiscovery: 'wait',
        onWarning: (message) => log(`[WARNING] ${message}`),
        onSessionWarning: (message) => log(`[WARNING] ${message}`),
        onPolicyFeedback: log,
        ...(textFiles ? { textFiles } : {}),
        ...(terminals ? { terminals } : {}),
      });
      opened = request.resume
        ? await runtime.resumeSession(request.resume)
        : await runtime.newSession({ sessionId });
    } catch (error) {
      await runtime?.close();
      throw asRequestError(asFatalError(error));
    }
    const { session } = opened;
    const open: OpenSession = {
      runtime,
      session,
      ...(opened.resumed ? { resumed: opened.resumed } : {}),
      cwd,
      calls,
      ...(terminals ? { terminals } : {}),
    };
    this.sessions.set(sessionId, open);
    // Whoever switches the mode (the client, the plan tools, a key on another front end), the
    // client hears the mode and options as they are now: no polling around turns.
    session.subscribe((change) => {
      if (change.type !== 'approval_mode_changed') return;
      for (const update of stateUpdates(session))
        void client.notify('session/update', { sessionId, update }).catch(() => undefined);
    });
    return open;
  }

  private sessionState(open: OpenSession): {
    modes: acp.SessionModeState;
    configOptions: acp.SessionConfigOption[];
  } {
    return { modes: modeState(open.session), configOptions: configOptions(open.session) };
  }

  /** After the answer (the client learns the session id first). */
  private announceCommands(sessionId: string, open: OpenSession, client: acp.AgentContext): void {
    setImmediate(() => {
      void client
        .notify('session/update', {
          sessionId,
          update: {
            sessionUpdate: 'available_commands_update',
            availableCommands: availableCommands(inputSources(open.runtime)),
          },
        })
        .catch(() => undefined);
    });
  }
}

function titleOf(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

function sessionInfoUpdate(title: string | undefined, updatedAt: Date): acp.SessionUpdate {
  return {
    sessionUpdate: 'session_info_update',
    ...(title ? { title } : {}),
    updatedAt: updatedAt.toISOString(),
  };
}

function checkedCwd(cwd: string): string {
  if (!isAbsolute(cwd))
    throw acp.RequestError.invalidParams(undefined, `cwd must be an absolute path: ${cwd}`);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    throw acp.RequestError.invalidParams(undefined, `cwd is not a directory: ${cwd}`);
  }
  return resolve(cwd);
}

/** The editor's MCP servers join the configured ones (same name: the editor's wins). */
function withClientServers(settings: Settings, servers: readonly acp.McpServer[]): Settings {
  if (servers.length === 0) return settings;
  const fromClient: Record<string, McpServerSettings> = {};
  const record = (pairs: readonly { name: string; value: string }[] | undefined) =>
    Object.fromEntries((pairs ?? []).map(({ name, value }) => [name, value]));
  for (const server of servers) {
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      fromClient[server.name] = { url: server.url, type: server.type, headers: record(server.headers) };
    } else if ('command' in server) {
      fromClient[server.name] = { command: server.command, args: server.args, env: record(server.env) };
    }
  }
  return { ...settings, mcpServers: { ...(settings.mcpServers ?? {}), ...fromClient } };
}

/** Setup failures as protocol errors: a missing key asks the client to authenticate. */
function asRequestError(error: unknown): acp.RequestError {
  if (error instanceof acp.RequestError) return error;
  if (error instanceof FatalError) {
    if (error.exitCode === ExitCode.auth) return acp.RequestError.authRequired(undefined, error.message);
    return acp.RequestError.invalidParams(undefined, error.message);
  }
  return acp.RequestError.internalError(undefined, (error as Error)?.message ?? String(error));
}

/** Where the session's commands, skills and MCP prompts come from (read per prompt). */
function inputSources(runtime: Runtime): InputSources {
  return {
    commands: () => runtime.extensibility?.loaded.commands ?? [],
    skills: () => runtime.extensibility?.loaded.skills ?? [],
    ...(runtime.mcp ? { mcp: runtime.mcp } : {}),
  };
}
