/**
 * The session's MCP servers: connects them in the background, keeps their tools registered under
 * kodo names as the servers' lists change, and tells front ends what happens (`subscribe`). The
 * interactive UI never waits for a server; headless mode waits for `waitForDiscovery()` (each
 * server bounded by its own timeout) so the model sees every tool from the first request.
 *
 * A server that dies keeps its tools registered: a call answers with an error that says the
 * server went away and how to reconnect (`/mcp refresh` → `refresh()`), rather than "no such tool".
 */

import { loadPart } from '../on-demand';
import type { ToolRegistry } from '../tools/registry';
import { untilAborted } from '../utils/abort';
import type { McpServerConfig } from './config';
import {
  McpServerConnection,
  type McpServerState,
  type McpTransportKind,
  McpUnavailableError,
} from './connection';
import type { McpPromptMessage, McpResourceContents, McpResourceInfo } from './discovery';
import { uniqueMcpToolName } from './naming';
import type { McpSignInOptions, McpSignInResult } from './oauth-flow';
import { sessionAuthProvider } from './oauth-provider';
import { McpOAuthStore } from './oauth-store';
import { type McpPromptCommand, promptCommands } from './prompts';
import {
  createResourceTools,
  LIST_MCP_RESOURCES,
  type McpResourceSource,
  READ_MCP_RESOURCE,
} from './resources';
import type { SchemaTarget } from './schema';
import { loadMcpSdk, type McpSdk } from './sdk';
import { createMcpTool, type McpTool } from './tool-adapter';

export interface McpManagerOptions {
  servers: McpServerConfig[];
  /** Where the servers' tools are registered (the session's registry). */
  registry: ToolRegistry;
  /** Environment of stdio servers, already without secrets. */
  baseEnv: NodeJS.ProcessEnv;
  cwd: string;
  clientInfo?: { name: string; version: string };
  /** The provider whose schema rules apply to the tools' declarations (default `portable`). */
  schemaTarget?: () => SchemaTarget;
  loadSdk?: () => Promise<McpSdk>;
  /** Where `kodo mcp auth` keeps OAuth sign-ins (`~/.kodo/mcp-oauth`); absent = no OAuth. */
  oauthDir?: string;
}

export interface McpToolStatus {
  /** The name the model sees. */
  name: string;
  serverToolName: string;
  description: string;
}

export interface McpServerStatus {
  name: string;
  state: McpServerState;
  transport?: McpTransportKind;
  error?: string;
  description?: string;
  trust: boolean;
  tools: McpToolStatus[];
  promptCount: number;
  resourceCount: number;
}

export type McpManagerEvent =
  | { type: 'server_state'; server: string; state: McpServerState; error?: string; previous: McpServerState }
  | { type: 'tools_changed'; server: string; added: string[]; removed: string[] }
  | { type: 'prompts_changed'; server: string }
  | { type: 'resources_changed'; server: string };

export class McpManager implements McpResourceSource {
  private readonly connections: McpServerConnection[];
  /** Per server: the server's tool name → the tool registered for it. */
  private readonly registered = new Map<string, Map<string, McpTool>>();
  private readonly listeners = new Set<(event: McpManagerEvent) => void>();
  private started = false;
  private resourceToolsRegistered = false;
  private readonly previousState = new Map<string, McpServerState>();

  constructor(private readonly options: McpManagerOptions) {
    let sdk: Promise<McpSdk> | undefined;
    const load = () => {
      sdk ??= (options.loadSdk ?? loadMcpSdk)();
      return sdk;
    };
    const store = options.oauthDir ? new McpOAuthStore(options.oauthDir) : undefined;
    this.connections = options.servers.map(
      (config) =>
        new McpServerConnection({
          config,
          baseEnv: options.baseEnv,
          cwd: options.cwd,
          clientInfo: options.clientInfo ?? { name: 'kodo', version: '0.0.0' },
          sdk: load,
          onChange: (change) => this.onChange(config.name, change),
          ...(store ? { authProvider: () => sessionAuthProvider(config, store) } : {}),
        }),
    );
  }

  /** Starts connecting every server; returns at once. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const connection of this.connections) void connection.connect();
  }

  /**
   * Settles once no server is still connecting (each one stops trying after its own timeout), or
   * when `signal` aborts. Starts the servers if `start()` was not called.
   */
  async waitForDiscovery(signal?: AbortSignal): Promise<void> {
    this.start();
    const pending = Promise.all(this.connections.map((connection) => connection.connect()));
    if (!signal) {
      await pending;
      return;
    }
    await untilAborted(pending, signal, undefined);
  }

  /** Whether any server is still connecting. */
  isDiscovering(): boolean {
    return this.connections.some((connection) => connection.state === 'connecting');
  }

  servers(): McpServerStatus[] {
    return this.connections.map((connection) => {
      const tools = [...(this.registered.get(connection.name)?.values() ?? [])].map((tool) => ({
        name: tool.name,
        serverToolName: tool.serverToolName,
        description: tool.description,
      }));
      return {
        name: connection.name,
        state: connection.state,
        ...(connection.transport ? { transport: connection.transport } : {}),
        ...(connection.error ? { error: connection.error } : {}),
        ...(connection.config.description ? { description: connection.config.description } : {}),
        trust: connection.config.trust,
        tools,
        promptCount: connection.state === 'connected' ? connection.prompts.length : 0,
        resourceCount: connection.state === 'connected' ? connection.resources.length : 0,
      };
    });
  }

  /** Reconnects one server (`/mcp refresh <name>`) or all of them, and relists what they offer. */
  async refresh(server?: string): Promise<void> {
    this.started = true;
    const targets = this.connections.filter(
      (connection) => server === undefined || connection.name === server,
    );
    if (server !== undefined && targets.length === 0) throw new Error(`No MCP server named '${server}'.`);
    await Promise.all(targets.map((connection) => connection.connect()));
  }

  /**
   * Signs in to a remote server with OAuth (`/mcp auth <name>`), then reconnects it with the new
   * tokens. The browser part is the caller's: it shows the URL and opens a browser.
   */
  async signIn(
    server: string,
    options: Omit<McpSignInOptions, 'config' | 'store'>,
  ): Promise<McpSignInResult> {
    const connection = this.connection(server);
    if (!this.options.oauthDir) throw new Error('OAuth sign-in is not available in this session.');
    const { signInToMcpServer } = await loadPart.mcpOAuth();
    const result = await signInToMcpServer({
      ...options,
      config: connection.config,
      store: new McpOAuthStore(this.options.oauthDir),
    });
    await this.refresh(server);
    return result;
  }

  subscribe(listener: (event: McpManagerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Slash commands for the connected servers' prompts. */
  promptCommands(): McpPromptCommand[] {
    return promptCommands(
      this.connected().map((connection) => ({ name: connection.name, prompts: connection.prompts })),
    );
  }

  async getPrompt(
    server: string,
    prompt: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpPromptMessage[]> {
    return this.connection(server).getPrompt(prompt, args, signal);
  }

  resourceServers(): { name: string; resources: McpResourceInfo[] }[] {
    return this.connected()
      .filter((connection) => connection.resources.length > 0)
      .map((connection) => ({ name: connection.name, resources: connection.resources }));
  }

  readResource(server: string, uri: string, signal: AbortSignal): Promise<McpResourceContents[]> {
    return this.connection(server).readResource(uri, signal);
  }

  /** What connected servers say about using them, by server. */
  instructions(): { server: string; text: string }[] {
    return this.connected()
      .filter((connection) => connection.instructions)
      .map((connection) => ({ server: connection.name, text: connection.instructions! }));
  }

  /** Disconnects every server (stdio servers' processes end) and removes their tools. */
  async dispose(): Promise<void> {
    this.listeners.clear();
    await Promise.all(this.connections.map((connection) => connection.close()));
    for (const server of this.registered.keys()) this.syncTools(server, []);
    this.syncResourceTools();
  }

  private connection(server: string): McpServerConnection {
    const connection = this.connections.find((candidate) => candidate.name === server);
    if (!connection) throw new McpUnavailableError(`No MCP server named '${server}' is configured.`);
    return connection;
  }

  private connected(): McpServerConnection[] {
    return this.connections.filter((connection) => connection.state === 'connected');
  }

  private onChange(server: string, change: 'state' | 'tools' | 'prompts' | 'resources'): void {
    const connection = this.connections.find((candidate) => candidate.name === server)!;
    if (change === 'state') {
      const previous = this.previousState.get(server) ?? 'disconnected';
      this.previousState.set(server, connection.state);
      // Tools follow a connected server's list; a server that is gone keeps them, so calls
      // answer "the server went away" instead of "no such tool".
      if (connection.state === 'connected') this.syncTools(server, connection.tools);
      this.syncResourceTools();
      if (previous !== connection.state) {
        this.emit({
          type: 'server_state',
          server,
          state: connection.state,
          previous,
          ...(connection.error ? { error: connection.error } : {}),
        });
      }
      return;
    }
    if (change === 'tools') {
      this.syncTools(server, connection.tools);
      return;
    }
    if (change === 'resources') this.syncResourceTools();
    this.emit({ type: change === 'prompts' ? 'prompts_changed' : 'resources_changed', server });
  }

  /** Registers, replaces and unregisters the server's tools to match `tools`. */
  private syncTools(server: string, tools: McpServerConnection['tools']): void {
    const registry = this.options.registry;
    const current = this.registered.get(server) ?? new Map<string, McpTool>();
    const next = new Map<string, McpTool>();
    const removed: string[] = [];
    const added: string[] = [];
    const wanted = new Set(tools.map((tool) => tool.name));
    for (const [toolName, tool] of current) {
      if (wanted.has(toolName)) continue;
      registry.unregister(tool.name);
      removed.push(tool.name);
    }
    const connection = this.connection(server);
    for (const info of tools) {
      const existing = current.get(info.name);
      if (existing) registry.unregister(existing.name);
      // Prefer the plain name; a hashed one only when another tool already has it.
      const name =
        existing?.name ??
        uniqueMcpToolName(server, info.name, (candidate) => registry.get(candidate) !== undefined);
      const tool = createMcpTool({
        name,
        serverName: server,
        info,
        backend: connection,
        schemaTarget: this.options.schemaTarget ?? (() => 'portable'),
      });
      registry.register(tool);
      next.set(info.name, tool);
      if (!existing) added.push(name);
    }
    this.registered.set(server, next);
    if (added.length > 0 || removed.length > 0) {
      this.emit({ type: 'tools_changed', server, added, removed });
    }
  }

  /** `list_mcp_resources` and `read_mcp_resource` exist while some connected server has resources. */
  private syncResourceTools(): void {
    const registry = this.options.registry;
    const wanted = this.resourceServers().length > 0;
    if (wanted === this.resourceToolsRegistered) return;
    if (wanted) {
      for (const tool of createResourceTools(this)) {
        if (!registry.get(tool.name)) registry.register(tool);
      }
    } else {
      registry.unregister(LIST_MCP_RESOURCES);
      registry.unregister(READ_MCP_RESOURCE);
    }
    this.resourceToolsRegistered = wanted;
  }

  private emit(event: McpManagerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A front end's listener must not break the servers.
      }
    }
  }
}
