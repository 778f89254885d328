/**
 * A protected remote MCP server and its OAuth authorization server on one loopback port, for
 * tests of kodo's MCP OAuth client. The MCP part is the SDK's own server (Streamable HTTP,
 * stateless) with one tool, `whoami`; the OAuth part is a small node:http mock that does what a
 * real one does on the paths the MCP authorization spec uses:
 *
 * - `/.well-known/oauth-protected-resource[/mcp]`: protected-resource metadata (RFC 9728);
 * - `/.well-known/oauth-authorization-server`: authorization-server metadata (RFC 8414);
 * - `/register`: dynamic client registration (RFC 7591);
 * - `/authorize`: checks client, redirect URI and S256 PKCE challenge, then redirects back with a
 *   code at once (the person always says yes);
 * - `/token`: the code (with the PKCE verifier) or a refresh token for a new access token.
 *
 * `/mcp` answers 401 with `WWW-Authenticate` unless the request carries a live access token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface OAuthMcpServerOptions {
  /** Seconds an access token lives (`expires_in`); default 3600. */
  accessTokenTtlSeconds?: number;
  /** A client known without registration, as with `oauth.clientId` in settings. */
  preRegistered?: { clientId: string; clientSecret?: string };
  /** Omit the registration endpoint from the metadata (only pre-registered clients work). */
  noRegistration?: boolean;
}

export interface OAuthMcpRequest {
  method: string;
  path: string;
  /** The form fields of a `/token` or the JSON of a `/register` request. */
  body?: Record<string, unknown>;
  authorization?: string;
}

export interface OAuthMcpServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The MCP endpoint: `<origin>/mcp` */
  url: string;
  requests: OAuthMcpRequest[];
  /** Clients registered through `/register`. */
  registrations: { client_id: string; redirect_uris: string[] }[];
  /** Every access token issued, oldest first. */
  accessTokens: string[];
  refreshTokens: string[];
  /** Makes every access token issued so far stop working (the next call needs a refresh). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource?: string;
}

export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  const clients = new Map<string, { secret?: string; redirectUris: string[] }>();
  if (options.preRegistered) {
    clients.set(options.preRegistered.clientId, {
      ...(options.preRegistered.clientSecret ? { secret: options.preRegistered.clientSecret } : {}),
      redirectUris: [],
    });
  }
  const codes = new Map<string, PendingCode>();
  const live = new Set<string>();
  const refreshable = new Map<string, string>();
  const requests: OAuthMcpRequest[] = [];
  const registrations: OAuthMcpServer['registrations'] = [];
  const accessTokens: string[] = [];
  const refreshTokens: string[] = [];
  let origin = '';

  const issueTokens = (clientId: string) => {
    const access = `at_${randomBytes(16).toString('hex')}`;
    const refresh = `rt_${randomBytes(16).toString('hex')}`;
    live.add(access);
    refreshable.set(refresh, clientId);
    accessTokens.push(access);
    refreshTokens.push(refresh);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ttl,
      refresh_token: refresh,
      scope: 'mcp',
    };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    const text = await readBody(request);
    const type = request.headers['content-type'] ?? '';
    let body: Record<string, unknown> | undefined;
    if (text !== '' && type.includes('application/x-www-form-urlencoded')) {
      body = Object.fromEntries(new URLSearchParams(text));
    } else if (text !== '' && type.includes('json')) {
      body = JSON.parse(text) as Record<string, unknown>;
    }
    requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      ...(body ? { body } : {}),
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    const json = (status: number, value: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return json(200, {
        resource: `${origin}/mcp`,
        authorization_servers: [origin],
        scopes_supported: ['mcp'],
      });
    }
    if (url.pathname.startsWith('/.well-known/oauth-authorization-server')) {
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        ...(options.noRegistration ? {} : { registration_endpoint: `${origin}/register` }),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      });
    }
    if (url.pathname === '/register' && request.method === 'POST' && !options.noRegistration) {
      const redirectUris = Array.isArray(body?.redirect_uris) ? (body.redirect_uris as string[]) : [];
      const clientId = `client_${randomBytes(8).toString('hex')}`;
      clients.set(clientId, { redirectUris });
      registrations.push({ client_id: clientId, redirect_uris: redirectUris });
      return json(201, { ...body, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const clientId = q.get('client_id') ?? '';
      const redirectUri = q.get('redirect_uri') ?? '';
      const client = clients.get(clientId);
      if (!client) return json(400, { error: 'invalid_client' });
      if (client.redirectUris.length > 0 && !client.redirectUris.includes(redirectUri)) {
        return json(400, { error: 'invalid_request', error_description: 'redirect_uri not registered' });
      }
      if (
        q.get('response_type') !== 'code' ||
        q.get('code_challenge_method') !== 'S256' ||
        !q.get('code_challenge')
      ) {
        return json(400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
      }
      const code = `code_${randomBytes(8).toString('hex')}`;
      codes.set(code, {
        clientId,
        redirectUri,
        challenge: q.get('code_challenge')!,
        ...(q.get('resource') ? { resource: q.get('resource')! } : {}),
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const grant = body?.grant_type;
      // client_secret_basic or client_secret_post, as the client picks.
      const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const [basicId, basicSecret] = basic
        ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
        : [];
      const clientId = basicId ?? String(body?.client_id ?? '');
      const secret = basicSecret ?? body?.client_secret;
      const client = clients.get(clientId);
      if (!client) return json(401, { error: 'invalid_client' });
      if (client.secret !== undefined && secret !== client.secret) {
        return json(401, { error: 'invalid_client' });
      }
      if (grant === 'authorization_code') {
        const pending = codes.get(String(body?.code ?? ''));
        codes.delete(String(body?.code ?? ''));
        const verifier = String(body?.code_verifier ?? '');
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (
          !pending ||
          pending.clientId !== clientId ||
          pending.redirectUri !== body?.redirect_uri ||
          pending.challenge !== challenge
        ) {
          return json(400, { error: 'invalid_grant' });
        }
        return json(200, issueTokens(clientId));
      }
      if (grant === 'refresh_token') {
        const owner = refreshable.get(String(body?.refresh_token ?? ''));
        if (owner !== clientId) return json(400, { error: 'invalid_grant' });
        refreshable.delete(String(body?.refresh_token));
        return json(200, issueTokens(clientId));
      }
      return json(400, { error: 'unsupported_grant_type' });
    }
    if (url.pathname === '/mcp') {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!token || !live.has(token)) {
        response
          .writeHead(401, {
            'content-type': 'application/json',
            'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end(JSON.stringify({ error: 'invalid_token' }));
        return;
      }
      const server = mcpServer(accessTokens.indexOf(token) + 1);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
      return;
    }
    json(404, { error: 'not_found' });
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/mcp`,
    requests,
    registrations,
    accessTokens,
    refreshTokens,
    expireAccessTokens: () => live.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** The protected server: `whoami` answers which access token (by its number) the call carried. */
function mcpServer(tokenNumber: number): Server {
  const server = new Server(
    { name: 'oauth-mock', version: '1.0.0' },
    { capabilities: { tools: {} }, instructions: 'A server behind OAuth.' },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'whoami',
        description: 'Says that the caller is signed in',
        inputSchema: { type: 'object', properties: {} },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    // The token's number, never the token: results end up in session files.
    content: [{ type: 'text', text: `signed in with access token #${tokenNumber}` }],
  }));
  return server;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}
