/**
 * A stand-in for the search APIs behind kodo's `web_search`, on 127.0.0.1, in each API's own
 * wire shape:
 *
 * - Brave Search: `GET /res/v1/web/search?q=…&count=…` with `X-Subscription-Token` →
 *   `{web: {results: [{title, url, description}]}}`;
 * - Tavily: `POST /search` with a JSON body `{query, max_results}` and `Authorization: Bearer …`
 *   → `{query, results: [{title, url, content, score}]}`;
 * - SearXNG: `GET /search?q=…&format=json` → `{query, results: [{title, url, content}]}`.
 *
 * Every request is recorded. With `apiKey` set, Brave and Tavily requests without that key get
 * the API's 401/403 answer; `status` makes every request fail with that HTTP status.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SearchMockResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchMockRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (Tavily), or undefined. */
  body?: unknown;
}

export interface SearchApiMockOptions {
  results?: SearchMockResult[];
  apiKey?: string;
  /** Answer every request with this HTTP status (and a short JSON error). */
  status?: number;
}

export interface SearchApiMock {
  /** `http://127.0.0.1:<port>`: the base URL for `tools.webSearch.baseUrl`. */
  url: string;
  requests: SearchMockRequest[];
  close(): Promise<void>;
}

export async function startSearchApiMock(options: SearchApiMockOptions = {}): Promise<SearchApiMock> {
  const requests: SearchMockRequest[] = [];
  const results = options.results ?? [];
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const url = new URL(req.url ?? '/', 'http://mock');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        ...(body !== undefined ? { body } : {}),
      });
      answer(req, res, url, body, options, results);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: unknown,
  options: SearchApiMockOptions,
  results: SearchMockResult[],
): 'sent' {
  const json = (status: number, value: unknown): 'sent' => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    return 'sent';
  };
  if (options.status) return json(options.status, { error: `mock failure ${options.status}` });
  if (url.pathname === '/res/v1/web/search' && req.method === 'GET') {
    if (options.apiKey !== undefined && req.headers['x-subscription-token'] !== options.apiKey) {
      return json(401, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', status: 401 } });
    }
    const count = Number(url.searchParams.get('count') ?? results.length);
    return json(200, {
      type: 'search',
      query: { original: url.searchParams.get('q') },
      web: {
        type: 'search',
        results: results.slice(0, count).map((r) => ({ title: r.title, url: r.url, description: r.snippet })),
      },
    });
  }
  if (url.pathname === '/search' && req.method === 'POST') {
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return json(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
    }
    const request = (body ?? {}) as { query?: string; max_results?: number };
    return json(200, {
      query: request.query,
      results: results
        .slice(0, request.max_results ?? results.length)
        .map((r, i) => ({ title: r.title, url: r.url, content: r.snippet, score: 1 - i / 10 })),
      response_time: 0.1,
    });
  }
  if (url.pathname === '/search' && req.method === 'GET' && url.searchParams.get('format') === 'json') {
    return json(200, {
      query: url.searchParams.get('q'),
      number_of_results: results.length,
      results: results.map((r) => ({ title: r.title, url: r.url, content: r.snippet, engine: 'mock' })),
    });
  }
  return json(404, { error: `no such endpoint: ${req.method} ${url.pathname}` });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
