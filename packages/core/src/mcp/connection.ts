/**
 * One MCP server: connecting (stdio, Streamable HTTP, SSE, or HTTP falling back to SSE) within a
 * deadline, what it offers (tools, prompts, resources), list-changed notifications, and noticing
 * when it goes away. Every failure ends in a state and a message; nothing here throws at the
 * manager, and a dead server never takes the session with it.
 */
import { resolve } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from './config';
import {
  listPrompts,
  listResources,
  listTools,
  type McpPromptInfo,
  type McpPromptMessage,
  type McpResourceContents,
  type McpResourceInfo,
  type McpToolInfo,
} from './discovery';
import { McpAuthRequiredError } from './oauth-provider';
import type { McpCallResult } from './results';
import type { McpSdk } from './sdk';

export type McpServerState = 'connecting' | 'connected' | 'disconnected' | 'failed';
export type McpTransportKind = 'stdio' | 'http' | 'sse';
export type McpListKind = 'tools' | 'prompts' | 'resources';

export interface McpConnectionOptions {
  config: McpServerConfig;
  /** Environment of a stdio server, already without secrets; the entry's own `env` is added. */
  baseEnv: NodeJS.ProcessEnv;
  /** Where a stdio server runs unless its entry sets `cwd` (relative ones resolve from here). */
  cwd: string;
  clientInfo: { name: string; version: string };
  sdk: () => Promise<McpSdk>;
  /** The state or one of the lists changed. */
  onChange: (change: 'state' | McpListKind) => void;
  /** OAuth for a remote server (stored sign-in, refreshed by the SDK); undefined = none. */
  authProvider?: () => OAuthClientProvider | undefined;
}

/** A server that cannot take a request now; the message is written for the model. */
export class McpUnavailableError extends Error {
  override readonly name = 'McpUnavailableError';
}

/** Keeps the end of a stdio server's stderr: the crash reason is usually there. */
const STDERR_TAIL_CHARS = 2_000;
/** The JSON-RPC code the SDK gives requests cut off by a closed connection. */
const CONNECTION_CLOSED = -32000;

export class McpServerConnection {
  state: McpServerState = 'disconnected';
  /** Why the server failed or went away. */
  error: string | undefined;
  transport: McpTransportKind | undefined;
  tools: McpToolInfo[] = [];
  prompts: McpPromptInfo[] = [];
  resources: McpResourceInfo[] = [];
  /** What the server says about using it (`instructions` of its initialize answer). */
  instructions: string | undefined;
  private client: Client | undefined;
  /** Bumped on every connect and close, so callbacks of an old client change nothing. */
  private epoch = 0;
  private stderrTail = '';
  private connecting: Promise<void> | undefined;
  /** The client of a handshake in progress, so a deadline can close it. */
  private opening: Client | undefined;

  constructor(private readonly options: McpConnectionOptions) {}

  get name(): string {
    return this.options.config.name;
  }

  get config(): McpServerConfig {
    return this.options.config;
  }

  /** Connects (again) and lists what the server offers; settles when connected or failed. */
  connect(): Promise<void> {
    this.connecting ??= this.runConnect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Closes the connection (a stdio server's process ends with it). */
  async close(): Promise<void> {
    this.epoch += 1;
    const clients = [this.client, this.opening];
    this.client = undefined;
    this.opening = undefined;
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
    if (this.state !== 'disconnected' || this.error) {
      this.state = 'disconnected';
      this.error = undefined;
      this.options.onChange('state');
    }
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress?: (message: string) => void },
  ): Promise<McpCallResult> {
    const client = this.usableClient();
    try {
      return (await client.callTool({ name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: this.options.config.requestTimeoutMs,
        // A tool that reports progress is working, not hung.
        resetTimeoutOnProgress: true,
        ...(options.onProgress
          ? {
              onprogress: (progress: { progress: number; total?: number; message?: string }) =>
                options.onProgress?.(progressLine(progress)),
            }
          : {}),
      })) as McpCallResult;
    } catch (error) {
      throw this.requestError(error, `running tool '${name}'`);
    }
  }

  async readResource(uri: string, signal: AbortSignal): Promise<McpResourceContents[]> {
    const client = this.usableClient();
    try {
      const result = await client.readResource(
        { uri },
        { signal, timeout: this.options.config.requestTimeoutMs },
      );
      return result.contents as McpResourceContents[];
    } catch (error) {
      throw this.requestError(error, `reading resource '${uri}'`);
    }
  }

  async getPrompt(
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpPromptMessage[]> {
    const client = this.usableClient();
    try {
      const result = await client.getPrompt(
        { name, arguments: args },
        { signal, timeout: this.options.config.requestTimeoutMs },
      );
      return result.messages as McpPromptMessage[];
    } catch (error) {
      throw this.requestError(error, `getting prompt '${name}'`);
    }
  }

  /** Why requests cannot go to the server now, for the model and the person. */
  unavailableMessage(): string {
    switch (this.state) {
      case 'connecting':
        return `MCP server '${this.name}' is still connecting; try again in a moment.`;
      case 'failed':
        return `MCP server '${this.name}' is not available: ${this.error ?? 'it failed to connect'}.`;
      default:
        return `MCP server '${this.name}' is not connected${this.error ? ` (${this.error})` : ''}. Its tools are unavailable until it is reconnected with /mcp refresh.`;
    }
  }

  private usableClient(): Client {
    if (this.state !== 'connected' || !this.client) throw new McpUnavailableError(this.unavailableMessage());
    return this.client;
  }

  /** A failed request: a closed connection becomes the "server went away" message. */
  private requestError(error: unknown, what: string): Error {
    if (this.state === 'disconnected' || (error as { code?: unknown })?.code === CONNECTION_CLOSED) {
      return new McpUnavailableError(
        `MCP server '${this.name}' went away while ${what}${this.error ? ` (${this.error})` : ''}. Its tools are unavailable until it is reconnected with /mcp refresh.`,
      );
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  private async runConnect(): Promise<void> {
    const previous = this.client;
    this.client = undefined;
    const epoch = ++this.epoch;
    await previous?.close().catch(() => undefined);
    this.state = 'connecting';
    this.error = undefined;
    this.stderrTail = '';
    this.options.onChange('state');
    const timeoutMs = this.options.config.connectTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    let opened: Client | undefined;
    try {
      const sdk = await this.options.sdk();
      const { client, transport } = await withDeadline(this.open(sdk, epoch, deadline), deadline, timeoutMs);
      opened = client;
      if (epoch !== this.epoch) {
        await client.close().catch(() => undefined);
        return;
      }
      this.client = client;
      this.transport = transport;
      this.instructions = client.getInstructions();
      await withDeadline(this.discover(client, deadline), deadline, timeoutMs);
      if (epoch !== this.epoch) return;
      this.state = 'connected';
      this.options.onChange('state');
    } catch (error) {
      if (epoch !== this.epoch) return;
      this.client = undefined;
      // Closing ends a stdio server that started but did not answer in time. Not awaited: a
      // stubborn process takes seconds to stop, and the failure is known now.
      void (opened ?? this.opening)?.close().catch(() => undefined);
      this.opening = undefined;
      this.epoch += 1;
      this.tools = [];
      this.prompts = [];
      this.resources = [];
      this.state = 'failed';
      this.error = this.describeFailure(error);
      this.options.onChange('state');
    }
  }

  private async open(
    sdk: McpSdk,
    epoch: number,
    deadline: number,
  ): Promise<{ client: Client; transport: McpTransportKind }> {
    const spec = this.options.config.transport;
    if (spec.kind === 'stdio') {
      const Stdio = await sdk.stdioTransport();
      const transport = new Stdio({
        command: spec.command,
        args: spec.args,
        env: { ...stringEnv(this.options.baseEnv), KODO_CLI: '1', ...spec.env },
        cwd: spec.cwd ? resolve(this.options.cwd, spec.cwd) : this.options.cwd,
        // Captured, never printed: a server's log lines would tear through the UI.
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer | string) => {
        this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
      });
      return { client: await this.handshake(sdk, transport, epoch, deadline), transport: 'stdio' };
    }
    const url = new URL(spec.url);
    const requestInit = { headers: spec.headers };
    const authProvider = this.options.authProvider?.();
    const remote = { requestInit, ...(authProvider ? { authProvider } : {}) };
    if (spec.kind === 'sse') {
      const Sse = await sdk.sseTransport();
      const transport = new Sse(url, remote);
      return { client: await this.handshake(sdk, transport, epoch, deadline), transport: 'sse' };
    }
    try {
      const StreamableHttp = await sdk.streamableHttpTransport();
      const transport = new StreamableHttp(url, remote);
      return { client: await this.handshake(sdk, transport, epoch, deadline), transport: 'http' };
    } catch (httpError) {
      if (spec.kind === 'http' || Date.now() >= deadline || isAuthFailure(httpError)) throw httpError;
      // No type given: a server that does not speak Streamable HTTP may speak the older SSE.
      try {
        const Sse = await sdk.sseTransport();
        const transport = new Sse(url, remote);
        return { client: await this.handshake(sdk, transport, epoch, deadline), transport: 'sse' };
      } catch (sseError) {
        throw new Error(
          `Streamable HTTP failed (${errorText(httpError)}), and so did SSE (${errorText(sseError)})`,
        );
      }
    }
  }

  /** A client with the notification handlers set, connected over `transport`. */
  private async handshake(
    sdk: McpSdk,
    transport: Transport,
    epoch: number,
    deadline: number,
  ): Promise<Client> {
    const client = new sdk.Client(this.options.clientInfo, { capabilities: {} });
    client.onclose = () => this.onClosed(epoch);
    // Transport hiccups surface as failed requests or a close; nothing to do with them here.
    client.onerror = () => undefined;
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => this.relist('tools', epoch));
    client.setNotificationHandler(sdk.PromptListChangedNotificationSchema, () =>
      this.relist('prompts', epoch),
    );
    client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, () =>
      this.relist('resources', epoch),
    );
    this.opening = client;
    try {
      await client.connect(transport, { timeout: Math.max(1, deadline - Date.now()) });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    } finally {
      if (this.opening === client) this.opening = undefined;
    }
    if (epoch !== this.epoch) {
      // The attempt was given up (deadline, close, reconnect) while this one was opening.
      await client.close().catch(() => undefined);
      throw new Error('connection attempt superseded');
    }
    return client;
  }

  private async discover(client: Client, deadline: number): Promise<void> {
    const capabilities = client.getServerCapabilities() ?? {};
    const timeout = () => Math.max(1, deadline - Date.now());
    this.tools = capabilities.tools ? await listTools(client, this.options.config, timeout()) : [];
    // Prompts and resources are extras: a server that fails to list them still serves its tools.
    this.prompts = capabilities.prompts ? await listPrompts(client, timeout()).catch(() => []) : [];
    this.resources = capabilities.resources ? await listResources(client, timeout()).catch(() => []) : [];
  }

  /** A list-changed notification: fetch that list again. */
  private async relist(kind: McpListKind, epoch: number): Promise<void> {
    const client = this.client;
    // Before discovery finishes the lists are fetched anyway.
    if (epoch !== this.epoch || this.state !== 'connected' || !client) return;
    const timeout = this.options.config.connectTimeoutMs;
    try {
      if (kind === 'tools') this.tools = await listTools(client, this.options.config, timeout);
      else if (kind === 'prompts') this.prompts = await listPrompts(client, timeout);
      else this.resources = await listResources(client, timeout);
    } catch {
      return;
    }
    if (epoch === this.epoch) this.options.onChange(kind);
  }

  private onClosed(epoch: number): void {
    // While connecting, the attempt in progress fails and reports it.
    if (epoch !== this.epoch || this.state === 'connecting') return;
    this.epoch += 1;
    this.client = undefined;
    this.state = 'disconnected';
    const tail = stderrReason(this.stderrTail);
    this.error = tail ? `the server exited: ${tail}` : 'the connection closed';
    this.options.onChange('state');
  }

  private describeFailure(error: unknown): string {
    const spec = this.options.config.transport;
    const text = errorText(error);
    let reason = text;
    if (error instanceof McpAuthRequiredError) {
      reason = authRequiredReason(this.name);
    } else if (error instanceof DeadlineError || /request timed out/i.test(text)) {
      reason = `did not answer within ${this.options.config.connectTimeoutMs} ms`;
    } else if ((error as NodeJS.ErrnoException)?.code === 'ENOENT' && spec.kind === 'stdio') {
      reason = `command not found: ${spec.command}`;
    } else if ((error as { code?: unknown })?.code === CONNECTION_CLOSED) {
      reason = 'the server exited before answering';
    } else if (isAuthFailure(error)) {
      reason = authRequiredReason(this.name);
    }
    const tail = stderrReason(this.stderrTail);
    return tail && !reason.includes(tail) ? `${reason} (stderr: ${tail})` : reason;
  }
}

/** A 401 from the server, or the SDK's auth flow needing a person. */
function isAuthFailure(error: unknown): boolean {
  return (
    error instanceof McpAuthRequiredError ||
    (error instanceof Error &&
      (error.name === 'UnauthorizedError' ||
        (error as { code?: unknown }).code === 401 ||
        /\b401\b|unauthorized/i.test(error.message)))
  );
}

function authRequiredReason(server: string): string {
  return `the server requires authentication (HTTP 401): run \`kodo mcp auth ${server}\` in an interactive terminal (or /mcp auth ${server} in kodo's UI) to sign in with OAuth, or set an Authorization header in the entry's "headers"`;
}

class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/** Rejects when the deadline passes first (some transports can wait forever for a first event). */
function withDeadline<T>(promise: Promise<T>, deadline: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeadlineError(`timed out after ${timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function progressLine(progress: { progress: number; total?: number; message?: string }): string {
  const amount = progress.total ? `${progress.progress}/${progress.total}` : String(progress.progress);
  return `Progress ${amount}${progress.message ? `: ${progress.message}` : ''}\n`;
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * The line of a server's stderr that says why it stopped: the last error message (`Error: …`,
 * `TypeError: …`) when there is one, otherwise the last line that is not Node's version footer.
 */
function stderrReason(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^Node\.js v\d/.test(line));
  return lines.findLast((line) => /^[A-Za-z]*Error(\s\[\w+\])?:/.test(line)) ?? lines.at(-1) ?? '';
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
