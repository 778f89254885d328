import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OAuthMcpServer, startOAuthMcpServer } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type McpServerConfig, resolveMcpServers } from '../../src/mcp/config';
import { McpManager } from '../../src/mcp/manager';
import { signInToMcpServer } from '../../src/mcp/oauth-flow';
import { McpOAuthProvider } from '../../src/mcp/oauth-provider';
import { McpOAuthStore } from '../../src/mcp/oauth-store';
import { ToolRegistry } from '../../src/tools/registry';
import { runRegistered } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mock(options: Parameters<typeof startOAuthMcpServer>[0] = {}): Promise<OAuthMcpServer> {
  const server = await startOAuthMcpServer(options);
  cleanups.push(() => server.close());
  return server;
}

function config(entry: Record<string, unknown>, name = 'remote'): McpServerConfig {
  const { servers, problems } = resolveMcpServers({ servers: { [name]: entry }, env: { SECRET: 's3cret' } });
  expect(problems).toEqual([]);
  return servers[0]!;
}

/** Plays the browser: follows the authorization URL, then its redirect to kodo's listener. */
function browser(opened: string[]) {
  return async (url: string) => {
    opened.push(url);
    const answer = await fetch(url, { redirect: 'manual' });
    const location = answer.headers.get('location');
    if (!location) throw new Error(`no redirect: ${answer.status} ${await answer.text()}`);
    await fetch(location);
  };
}

function manager(servers: McpServerConfig[], oauthDir: string) {
  const registry = new ToolRegistry();
  const instance = new McpManager({ servers, registry, baseEnv: {}, cwd: process.cwd(), oauthDir });
  cleanups.push(() => instance.dispose());
  return { manager: instance, registry };
}

const tempDir = () => join(mkdtempSync(join(tmpdir(), 'kodo-oauth-')), 'mcp-oauth');

describe('MCP OAuth sign-in (discovery, dynamic registration, PKCE, loopback redirect)', () => {
  it('signs in end to end and stores the tokens in a 0600 file; a session then uses them', async () => {
    const server = await mock();
    const dir = tempDir();
    const store = new McpOAuthStore(dir);
    const remote = config({ url: server.url, type: 'http' });
    const shown: string[] = [];
    const opened: string[] = [];
    const result = await signInToMcpServer({
      config: remote,
      store,
      onAuthorizationUrl: (url) => shown.push(url),
      openBrowser: browser(opened),
    });
    expect(result).toMatchObject({ scope: 'mcp', hasRefreshToken: true });
    expect(shown).toEqual(opened);
    const authorize = new URL(shown[0]!);
    expect(authorize.origin + authorize.pathname).toBe(`${server.origin}/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('resource')).toBe(server.url);
    // Discovery went through both metadata documents, and a client was registered for the loopback.
    const paths = server.requests.map((request) => request.path);
    expect(paths.some((path) => path.startsWith('/.well-known/oauth-protected-resource'))).toBe(true);
    expect(paths).toContain('/.well-known/oauth-authorization-server');
    expect(server.registrations).toHaveLength(1);
    expect(server.registrations[0]!.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    const tokenRequest = server.requests.find((request) => request.path === '/token');
    expect(tokenRequest?.body).toMatchObject({ grant_type: 'authorization_code' });
    expect(String(tokenRequest?.body?.code_verifier)).toMatch(/^[\w~.-]{43,128}$/);

    const file = store.path('remote');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.tokens.access_token).toBe(server.accessTokens[0]);
    expect(saved.serverUrl).toBe(server.url);
    expect(saved.codeVerifier).toBeUndefined();

    const { manager: session, registry } = manager([remote], dir);
    await session.waitForDiscovery();
    expect(session.servers()[0]).toMatchObject({ state: 'connected' });
    expect(session.instructions()).toEqual([{ server: 'remote', text: 'A server behind OAuth.' }]);
    const call = await runRegistered(registry, 'mcp_remote_whoami', {});
    expect(String(call.llmContent)).toContain('signed in with access token #1');
  });

  it('refreshes an expired access token with the refresh token and keeps the new one', async () => {
    const server = await mock();
    const dir = tempDir();
    const store = new McpOAuthStore(dir);
    const remote = config({ url: server.url, type: 'http' });
    await signInToMcpServer({
      config: remote,
      store,
      onAuthorizationUrl: () => {},
      openBrowser: browser([]),
    });
    const { manager: session, registry } = manager([remote], dir);
    await session.waitForDiscovery();
    server.expireAccessTokens();
    const call = await runRegistered(registry, 'mcp_remote_whoami', {});
    expect(call.error).toBeUndefined();
    expect(String(call.llmContent)).toContain('signed in with access token #2');
    expect(server.requests.filter((request) => request.body?.grant_type === 'refresh_token')).toHaveLength(1);
    expect(store.read('remote', server.url)?.tokens?.access_token).toBe(server.accessTokens[1]);
  });

  it('a session never signs in by itself: it fails with the command to run, registering nothing', async () => {
    const server = await mock();
    const remote = config({ url: server.url, type: 'http' });
    const { manager: session } = manager([remote], tempDir());
    await session.waitForDiscovery();
    const [status] = session.servers();
    expect(status?.state).toBe('failed');
    expect(status?.error).toContain('kodo mcp auth remote');
    expect(server.registrations).toEqual([]);
    // Also with an `oauth` entry, which puts the SDK's auth flow in play.
    const configured = config({ url: server.url, type: 'http', oauth: { scopes: ['mcp'] } });
    const second = manager([configured], tempDir());
    await second.manager.waitForDiscovery();
    expect(second.manager.servers()[0]?.error).toContain('kodo mcp auth remote');
    expect(server.registrations).toEqual([]);
  });

  it('McpManager.signIn (/mcp auth) signs in a failed server and reconnects it', async () => {
    const server = await mock();
    const { manager: session, registry } = manager([config({ url: server.url, type: 'http' })], tempDir());
    await session.waitForDiscovery();
    expect(session.servers()[0]?.state).toBe('failed');
    await session.signIn('remote', { onAuthorizationUrl: () => {}, openBrowser: browser([]) });
    expect(session.servers()[0]?.state).toBe('connected');
    expect(String((await runRegistered(registry, 'mcp_remote_whoami', {})).llmContent)).toContain('#1');
    await expect(
      session.signIn('nope', { onAuthorizationUrl: () => {}, openBrowser: async () => {} }),
    ).rejects.toThrow("No MCP server named 'nope'");
  });

  it('honours oauth.clientId/clientSecret/authorizationUrl/tokenUrl: no registration, no metadata discovery', async () => {
    const server = await mock({
      preRegistered: { clientId: 'kodo-app', clientSecret: 's3cret' },
      noRegistration: true,
    });
    const store = new McpOAuthStore(tempDir());
    const remote = config({
      url: server.url,
      type: 'http',
      oauth: {
        clientId: 'kodo-app',
        clientSecret: '$SECRET',
        authorizationUrl: `${server.origin}/authorize`,
        tokenUrl: `${server.origin}/token`,
        scopes: ['mcp', 'extra'],
        audiences: ['api://x'],
      },
    });
    const shown: string[] = [];
    await signInToMcpServer({
      config: remote,
      store,
      onAuthorizationUrl: (url) => shown.push(url),
      openBrowser: browser([]),
    });
    const authorize = new URL(shown[0]!);
    expect(authorize.searchParams.get('client_id')).toBe('kodo-app');
    expect(authorize.searchParams.get('scope')).toBe('mcp extra');
    expect(authorize.searchParams.get('audience')).toBe('api://x');
    expect(server.requests.map((request) => request.path)).not.toContain(
      '/.well-known/oauth-authorization-server',
    );
    // The mock refuses the token request unless the client secret (expanded from $SECRET) came with it.
    expect(store.read('remote', server.url)?.tokens?.access_token).toBe(server.accessTokens[0]);
  });

  it('honours oauth.redirectUri and ignores a callback without the right state', async () => {
    const server = await mock();
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const remote = config({
      url: server.url,
      type: 'http',
      oauth: { redirectUri: `http://localhost:${port}/back` },
    });
    const forged: number[] = [];
    await signInToMcpServer({
      config: remote,
      store: new McpOAuthStore(tempDir()),
      onAuthorizationUrl: () => {},
      openBrowser: async (url) => {
        // A page that guesses the listener's address first: refused, the sign-in goes on.
        forged.push((await fetch(`http://localhost:${port}/back?code=stolen&state=wrong`)).status);
        await browser([])(url);
      },
    });
    expect(forged).toEqual([404]);
    expect(server.registrations[0]!.redirect_uris).toEqual([`http://localhost:${port}/back`]);
  });

  it('refuses a redirectUri that is not a loopback address, and stdio servers', async () => {
    const server = await mock();
    const store = new McpOAuthStore(tempDir());
    const attempt = (entry: Record<string, unknown>) =>
      signInToMcpServer({
        config: config(entry),
        store,
        onAuthorizationUrl: () => {},
        openBrowser: async () => {},
      });
    await expect(
      attempt({ url: server.url, oauth: { redirectUri: 'https://evil.example/callback' } }),
    ).rejects.toThrow(/loopback/);
    await expect(attempt({ command: 'node' })).rejects.toThrow(/stdio/);
    await expect(attempt({ url: server.url, oauth: { enabled: false } })).rejects.toThrow(/turned off/);
  });

  it('never sends a stored token to another URL under the same server name', async () => {
    const real = await mock();
    const other = await mock();
    const dir = tempDir();
    const store = new McpOAuthStore(dir);
    await signInToMcpServer({
      config: config({ url: real.url, type: 'http' }),
      store,
      onAuthorizationUrl: () => {},
      openBrowser: browser([]),
    });
    const token = real.accessTokens[0]!;
    // A project's settings point the same name somewhere else.
    const { manager: session } = manager([config({ url: other.url, type: 'http' })], dir);
    await session.waitForDiscovery();
    expect(session.servers()[0]?.state).toBe('failed');
    expect(other.requests.some((request) => request.authorization?.includes(token))).toBe(false);
    expect(JSON.stringify(other.requests)).not.toContain(token);
  });

  it('a failed refresh does not throw away tokens another kodo process refreshed meanwhile', () => {
    const store = new McpOAuthStore(tempDir());
    const url = 'http://127.0.0.1:1/mcp';
    store.update('remote', url, {
      clientInformation: { client_id: 'c' },
      tokens: { access_token: 'a1', token_type: 'Bearer', refresh_token: 'r1' },
    });
    const provider = new McpOAuthProvider({
      serverName: 'remote',
      serverUrl: url,
      settings: {},
      store,
      mode: 'session',
    });
    expect(provider.tokens()?.refresh_token).toBe('r1');
    // The other process rotated the refresh token; this one's r1 is now refused.
    store.update('remote', url, {
      tokens: { access_token: 'a2', token_type: 'Bearer', refresh_token: 'r2' },
    });
    provider.invalidateCredentials('tokens');
    expect(store.read('remote', url)?.tokens?.refresh_token).toBe('r2');
    // Its own tokens, refused, are forgotten.
    expect(provider.tokens()?.refresh_token).toBe('r2');
    provider.invalidateCredentials('tokens');
    expect(store.read('remote', url)?.tokens).toBeUndefined();
    expect(store.read('remote', url)?.clientInformation).toEqual({ client_id: 'c' });
  });
});
