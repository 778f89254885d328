/**
 * Opening an ACP session: a kodo Session from a runtime of its own, assembled as the CLI assembles
 * one for its folder (that folder's trust and settings, policy, hooks, MCP, the session log), with
 * the editor as the person: approvals go to it, file tools read and write through it when it
 * offers that, and the editor's MCP servers join the configured ones.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type {
  LoadedSession,
  McpServerSettings,
  Runtime,
  Session,
  SessionSummary,
  Settings,
} from '@kodo/core/engine';
import type { CliArgs } from '../shared/args';
import { ExitCode, FatalError } from '../shared/exit-codes';
import { asFatalError, createCliRuntime } from '../shared/runtime-setup';
import { gateFolderTrust } from '../shared/trust-gate';
import { CallIds } from './call-ids';
import { editorTextFiles } from './editor-files';
import { EditorTerminals } from './editor-terminal';
import { editorConfirmHandler } from './permissions';
import { announceModeChanges } from './session-config';

export interface OpenSession {
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
  /** Stops the announcements that follow the session (modes, commands) when it closes. */
  stopAnnouncing: (() => void)[];
}

export interface SessionRequest {
  sessionId: string;
  cwd: string;
  mcpServers: readonly acp.McpServer[];
  client: acp.AgentContext;
  /** The recorded session to continue. */
  resume?: SessionSummary;
}

export interface ConnectionSetup {
  args: CliArgs;
  /** The environment with the keys the editor gave; the session takes a copy. */
  env: NodeJS.ProcessEnv;
  capabilities: acp.ClientCapabilities;
  log: (message: string) => void;
}

export async function openSession(request: SessionRequest, setup: ConnectionSetup): Promise<OpenSession> {
  const { sessionId, cwd, client } = request;
  const { log, capabilities } = setup;
  let runtime: Runtime | undefined;
  const textFiles = editorTextFiles({ client, sessionId, cwd, capabilities: capabilities.fs });
  const terminals = capabilities.terminal ? new EditorTerminals(client, sessionId) : undefined;
  const calls = new CallIds();
  let opened: { session: Session; resumed?: LoadedSession };
  try {
    // The session's folder decides, as `kodo -p` there would: its trust, then its settings
    // (user and project when trusted, the user's alone when restricted), not the launch folder's.
    // Its own copy of the environment: the folder's `.env` (read by the gate) is this session's
    // alone, not every later session's in other folders.
    const env = { ...setup.env };
    const gate = await gateFolderTrust({ cwd, env, args: setup.args, interactive: false });
    if (!gate.ok) throw acp.RequestError.invalidParams(undefined, gate.message);
    if (gate.notice) log(gate.notice);
    runtime = await createCliRuntime({
      args: setup.args,
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
  const send = (update: acp.SessionUpdate) => client.notify('session/update', { sessionId, update });
  return {
    runtime,
    session,
    ...(opened.resumed ? { resumed: opened.resumed } : {}),
    cwd,
    calls,
    ...(terminals ? { terminals } : {}),
    stopAnnouncing: [announceModeChanges(session, send)],
  };
}

/** The session's folder: absolute, and a directory that exists. */
export function checkedCwd(cwd: string): string {
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
