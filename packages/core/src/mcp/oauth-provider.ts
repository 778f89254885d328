/**
 * kodo's side of the MCP SDK's OAuth support (`OAuthClientProvider`): what the SDK's `auth()`
 * and its HTTP/SSE transports ask for and save, backed by `McpOAuthStore`.
 *
 * Two modes. `sign-in` (`kodo mcp auth`, `/mcp auth`): a fresh authorization through the browser,
 * ignoring stored tokens. `session`: a running session sends the stored access token and lets the
 * SDK refresh it when the server answers 401; when a person would have to sign in again, it
 * fails with `McpAuthRequiredError` instead of registering clients or opening anything.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthSettings, McpServerConfig } from './config';
import type { McpOAuthStore } from './oauth-store';

/** Sent as the redirect URI of a session's refreshes, which never follow it. */
const SESSION_REDIRECT_PLACEHOLDER = 'http://127.0.0.1/oauth/callback';

/** The server needs a person to sign in; the message says how. */
export class McpAuthRequiredError extends Error {
  override readonly name = 'McpAuthRequiredError';
  constructor(readonly server: string) {
    super(
      `MCP server '${server}' requires authentication: run \`kodo mcp auth ${server}\` in an interactive terminal (or /mcp auth ${server} in kodo's UI) to sign in`,
    );
  }
}

export interface McpOAuthProviderOptions {
  serverName: string;
  serverUrl: string;
  settings: McpOAuthSettings;
  store: McpOAuthStore;
  mode: 'sign-in' | 'session';
  /** Sign-in: the loopback address the browser comes back to. */
  redirectUrl?: string;
  /** Sign-in: the `state` parameter expected back. */
  state?: string;
  /** Sign-in: shows the person the authorization URL. */
  onAuthorizationUrl?: (url: URL) => void | Promise<void>;
}

export class McpOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;

  constructor(private readonly options: McpOAuthProviderOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl ?? this.record()?.redirectUrl ?? SESSION_REDIRECT_PLACEHOLDER;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.options.settings.scopes;
    return {
      client_name: 'kodo',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.options.settings.clientSecret ? 'client_secret_post' : 'none',
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  state(): string {
    return this.options.state ?? '';
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.options.settings;
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    const record = this.record();
    const stored = record?.clientInformation;
    if (this.options.mode === 'session') {
      // Registering a client is part of signing in, which a session never does by itself.
      if (!stored) throw new McpAuthRequiredError(this.options.serverName);
      return stored;
    }
    // A client registered for another loopback port would be refused the new redirect.
    return stored && record?.redirectUrl === this.redirectUrl ? stored : undefined;
  }

  saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
    this.write({ clientInformation, redirectUrl: this.redirectUrl });
  }

  tokens(): OAuthTokens | undefined {
    // Signing in starts over: stored tokens would only be refreshed, never replaced.
    if (this.options.mode === 'sign-in' && !this.signedIn) return undefined;
    const tokens = this.record()?.tokens;
    this.handedOut = tokens?.refresh_token;
    return tokens;
  }

  private signedIn = false;
  /** The refresh token this provider last gave the SDK. */
  private handedOut: string | undefined;

  saveTokens(tokens: OAuthTokens): void {
    this.signedIn = true;
    const expiresAt =
      typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined;
    // A refresh answer may leave out the refresh token: the old one stays valid then.
    const previous = this.record()?.tokens;
    const refresh =
      tokens.refresh_token ?? (this.options.mode === 'session' ? previous?.refresh_token : undefined);
    this.write({
      tokens: { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) },
      expiresAt,
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.options.mode === 'session' || !this.options.onAuthorizationUrl) {
      throw new McpAuthRequiredError(this.options.serverName);
    }
    for (const audience of this.options.settings.audiences ?? []) {
      authorizationUrl.searchParams.append('audience', audience);
    }
    await this.options.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    // Lives as long as one sign-in, in memory only.
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('No OAuth sign-in is in progress.');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    const change: Parameters<McpOAuthStore['update']>[2] = {};
    if (scope === 'all' || scope === 'client') change.clientInformation = undefined;
    // Another kodo may have refreshed meanwhile (a rotated refresh token makes this one's fail):
    // tokens other than the ones this provider handed out are newer and stay.
    const replaced = this.record()?.tokens?.refresh_token !== this.handedOut;
    if ((scope === 'all' || scope === 'tokens') && !replaced) {
      change.tokens = undefined;
      change.expiresAt = undefined;
    }
    if (scope === 'all' || scope === 'discovery') change.discoveryState = undefined;
    if (this.record()) this.write(change);
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    const configured = configuredEndpoints(this.options.settings);
    return configured ?? this.record()?.discoveryState;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    if (configuredEndpoints(this.options.settings)) return;
    this.write({ discoveryState: state });
  }

  private record() {
    return this.options.store.read(this.options.serverName, this.options.serverUrl);
  }

  private write(change: Parameters<McpOAuthStore['update']>[2]): void {
    this.options.store.update(this.options.serverName, this.options.serverUrl, change);
  }
}

/** `authorizationUrl` + `tokenUrl` in the settings: the endpoints as given, no discovery. */
function configuredEndpoints(settings: McpOAuthSettings): OAuthDiscoveryState | undefined {
  const { authorizationUrl, tokenUrl } = settings;
  if (!authorizationUrl || !tokenUrl) return undefined;
  const issuer = new URL(authorizationUrl).origin;
  return {
    authorizationServerUrl: issuer,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: authorizationUrl,
      token_endpoint: tokenUrl,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    },
  };
}

/**
 * The provider a session's connection to `config` uses, or undefined when OAuth is not in play:
 * a stdio server, `oauth.enabled: false`, or neither an `oauth` entry nor a stored sign-in.
 */
export function sessionAuthProvider(
  config: McpServerConfig,
  store: McpOAuthStore,
): McpOAuthProvider | undefined {
  const spec = config.transport;
  if (spec.kind === 'stdio' || config.oauth?.enabled === false) return undefined;
  if (!config.oauth && !store.has(config.name, spec.url)) return undefined;
  return new McpOAuthProvider({
    serverName: config.name,
    serverUrl: spec.url,
    settings: config.oauth ?? {},
    store,
    mode: 'session',
  });
}
