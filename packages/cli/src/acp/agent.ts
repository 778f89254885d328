/**
 * kodo as an ACP agent: the protocol's agent side on one connection, and the lifecycle of its
 * sessions (new, load and resume, prompt one at a time, cancel, close, delete). Each ACP session
 * is a kodo Session from a runtime of its own (open-session.ts); what a prompt means and who
 * answers it is prompt-request.ts.
 */
import * as acp from '@agentclientprotocol/sdk';
import { newSessionId, SessionStore, type Settings, type SettingsScope } from '@kodo/core/engine';
import type { CliArgs } from '../shared/args';
import { KODO_VERSION } from '../shared/version';
import { AUTH_METHODS, EditorCredentials } from './authentication';
import { announceCommands } from './command-announcements';
import { checkedCwd, type OpenSession, openSession, type SessionRequest } from './open-session';
import { answerPrompt } from './prompt-request';
import { replayUpdates } from './replay';
import { applyConfigOption, applyMode, configOptions, modeState } from './session-config';
import { sessionInfoUpdate } from './session-info';
import { deleteRecordedSession, listRecordedSessions } from './session-list';

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

export class AcpAgent {
  private clientCapabilities: acp.ClientCapabilities = {};
  private readonly sessions = new Map<string, OpenSession>();
  private readonly credentials: EditorCredentials;
  /** The project folders this connection has used: where `session/delete` looks. */
  private readonly cwds = new Set<string>();

  constructor(private readonly options: AcpAgentOptions) {
    this.credentials = new EditorCredentials(options.env);
    this.cwds.add(process.cwd());
  }

  private get env(): NodeJS.ProcessEnv {
    return this.credentials.env;
  }

  /** The handlers, on a fresh SDK agent app. */
  app(): acp.AgentApp {
    return acp
      .agent({ name: 'kodo' })
      .onRequest('initialize', ({ params }) => this.initialize(params))
      .onRequest('authenticate', ({ params }) => this.credentials.authenticate(params))
      .onRequest('logout', () => this.credentials.logout())
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
      .onRequest('session/set_mode', ({ params }) => this.setMode(params))
      .onRequest('session/set_config_option', ({ params }) => this.setConfigOption(params));
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

  async newSession(params: acp.NewSessionRequest, client: acp.AgentContext): Promise<acp.NewSessionResponse> {
    const cwd = checkedCwd(params.cwd);
    const sessionId = newSessionId();
    const open = await this.open({ sessionId, cwd, mcpServers: params.mcpServers, client });
    await open.session.start('startup');
    this.announceCommands(sessionId, open, client);
    return { sessionId, ...sessionState(open) };
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
    return sessionState(open);
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
    const turn = answerPrompt(params, open, client, controller.signal);
    open.running = { controller, done: turn };
    try {
      return await turn;
    } finally {
      if (open.running?.controller === controller) open.running = undefined;
    }
  }

  /** `session/cancel`: stops the model and the running tools (their process groups); the prompt answers `cancelled`. */
  cancel(sessionId: string): void {
    this.sessions.get(sessionId)?.running?.controller.abort();
  }

  async setMode(params: acp.SetSessionModeRequest): Promise<acp.SetSessionModeResponse> {
    // The client hears the new mode through the session's approval_mode_changed event (open-session.ts).
    applyMode(this.session(params.sessionId).session, params.modeId);
    return {};
  }

  async setConfigOption(
    params: acp.SetSessionConfigOptionRequest,
  ): Promise<acp.SetSessionConfigOptionResponse> {
    const { session } = this.session(params.sessionId);
    applyConfigOption(session, params);
    return { configOptions: configOptions(session) };
  }

  /** Ends every session, each by its runtime's one teardown (SessionEnd hooks first, MCP servers last). */
  async dispose(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private async open(request: SessionRequest): Promise<OpenSession> {
    this.cwds.add(request.cwd);
    const open = await openSession(request, {
      args: this.options.args,
      env: this.env,
      capabilities: this.clientCapabilities,
      log: this.options.log,
    });
    this.sessions.set(request.sessionId, open);
    return open;
  }

  private async close(sessionId: string): Promise<void> {
    const open = this.sessions.get(sessionId);
    if (!open) return;
    this.sessions.delete(sessionId);
    for (const stop of open.stopAnnouncing) stop();
    open.running?.controller.abort();
    await open.running?.done.catch(() => undefined);
    await open.runtime.close();
  }

  private session(sessionId: string): OpenSession {
    const open = this.sessions.get(sessionId);
    if (!open) throw acp.RequestError.resourceNotFound(sessionId);
    return open;
  }

  private announceCommands(sessionId: string, open: OpenSession, client: acp.AgentContext): void {
    open.stopAnnouncing.push(
      announceCommands({
        sources: open.runtime.inputSources(),
        send: (update) => client.notify('session/update', { sessionId, update }),
        ...(open.runtime.mcp ? { mcp: open.runtime.mcp } : {}),
      }),
    );
  }
}

function sessionState(open: OpenSession): {
  modes: acp.SessionModeState;
  configOptions: acp.SessionConfigOption[];
} {
  return { modes: modeState(open.session), configOptions: configOptions(open.session) };
}
