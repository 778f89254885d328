/**
 * Signing in to a remote MCP server (`kodo mcp auth <server>`, `/mcp auth <server>`): the MCP
 * SDK's `auth()` discovers the protected resource and its authorization server, registers a
 * client when none is configured, and builds a PKCE authorization-code request; kodo shows the
 * URL (and opens the browser), takes the code on a loopback listener, and `auth()` exchanges it
 * for tokens, which `McpOAuthStore` keeps. Loaded only by those commands.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeFetchThroughProxy } from '../net/proxy-transport';
import type { McpServerConfig } from './config';
import { McpOAuthProvider } from './oauth-provider';
import type { McpOAuthStore } from './oauth-store';

/** How long the person has to finish in the browser. */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_CALLBACK_PATH = '/oauth/callback';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface McpSignInOptions {
  config: McpServerConfig;
  store: McpOAuthStore;
  /** Shown first, always: the person can open it by hand when no browser opens. */
  onAuthorizationUrl: (url: string) => void;
  /** Opens the URL in a browser; its failure is not the sign-in's (the URL was shown). */
  openBrowser: (url: string) => Promise<void>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface McpSignInResult {
  /** Scopes the authorization server granted, when it says. */
  scope?: string;
  /** When the access token expires (ms since the epoch), when the server says. */
  expiresAt?: number;
  hasRefreshToken: boolean;
}

export async function signInToMcpServer(options: McpSignInOptions): Promise<McpSignInResult> {
  const { config } = options;
  const spec = config.transport;
  if (spec.kind === 'stdio') {
    throw new Error(
      `MCP server '${config.name}' runs over stdio; OAuth is for remote (http or sse) servers.`,
    );
  }
  if (config.oauth?.enabled === false) {
    throw new Error(`OAuth is turned off for MCP server '${config.name}' (oauth.enabled is false).`);
  }
  await routeFetchThroughProxy();
  const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
  const state = randomBytes(24).toString('base64url');
  const listener = await listenForCallback(config.oauth?.redirectUri, state);
  const signal = options.signal;
  try {
    const provider = new McpOAuthProvider({
      serverName: config.name,
      serverUrl: spec.url,
      settings: config.oauth ?? {},
      store: options.store,
      mode: 'sign-in',
      redirectUrl: listener.redirectUrl,
      state,
      onAuthorizationUrl: async (url) => {
        options.onAuthorizationUrl(url.href);
        await options.openBrowser(url.href).catch(() => undefined);
      },
    });
    const scope = config.oauth?.scopes?.join(' ') || undefined;
    const first = await auth(provider, { serverUrl: spec.url, ...(scope ? { scope } : {}) });
    if (first === 'REDIRECT') {
      const code = await withTimeout(
        listener.code,
        options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
        signal,
        `No answer from the browser within ${Math.round((options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS) / 1000)} s.`,
      );
      await auth(provider, { serverUrl: spec.url, authorizationCode: code, ...(scope ? { scope } : {}) });
    }
    const record = options.store.read(config.name, spec.url);
    if (!record?.tokens) throw new Error('The authorization server returned no tokens.');
    return {
      ...(record.tokens.scope ? { scope: record.tokens.scope } : {}),
      ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
      hasRefreshToken: Boolean(record.tokens.refresh_token),
    };
  } finally {
    await listener.close();
  }
}

interface CallbackListener {
  redirectUrl: string;
  /** The authorization code the browser brought back. */
  code: Promise<string>;
  close(): Promise<void>;
}

/**
 * Listens on the loopback interface for the browser's return. Only a request on the callback
 * path that carries the expected `state` counts; anything else gets a 404 and changes nothing.
 */
async function listenForCallback(redirectUri: string | undefined, state: string): Promise<CallbackListener> {
  const target = new URL(redirectUri ?? `http://127.0.0.1:0${DEFAULT_CALLBACK_PATH}`);
  if (target.protocol !== 'http:' || !LOOPBACK_HOSTS.has(target.hostname)) {
    throw new Error(
      `oauth.redirectUri must be an http:// loopback address (127.0.0.1, localhost or [::1]) that kodo can listen on; got ${target.href}`,
    );
  }
  const path = target.pathname === '/' ? DEFAULT_CALLBACK_PATH : target.pathname;
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Not every caller awaits the code (an error before the redirect); that is no unhandled rejection.
  code.catch(() => undefined);
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path || url.searchParams.get('state') !== state) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const error = url.searchParams.get('error');
    const given = url.searchParams.get('code');
    if (error || !given) {
      const description = url.searchParams.get('error_description');
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Sign-in failed. You can close this tab.');
      settle?.reject(
        new Error(
          `The authorization server refused: ${error ?? 'no code'}${description ? ` (${description})` : ''}`,
        ),
      );
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/plain' })
      .end('kodo is signed in. You can close this tab and go back to the terminal.');
    settle?.resolve(given);
  });
  const host = target.hostname === '[::1]' ? '::1' : target.hostname;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Cannot listen for the sign-in on ${target.host}: the port is in use.`)
          : error,
      ),
    );
    server.listen(Number(target.port || 0), host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = target.hostname;
  return {
    redirectUrl: `http://${shownHost}:${port}${path}`,
    code,
    close: () =>
      new Promise<void>((resolve) => {
        settle?.reject(new Error('The sign-in was stopped.'));
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  message: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    if (signal) {
      onAbort = () => reject(new Error('The sign-in was cancelled.'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  return Promise.race([promise, stop]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}
