/**
 * The search APIs behind `web_search` (setting `tools.webSearch`): Brave Search, Tavily and a
 * SearXNG instance. Each returns the same list of results (title, URL, snippet). The endpoint
 * and key come from settings and the environment, never from the model: the model only chooses
 * the query, so these requests are not held to web_fetch's private-address guard (a SearXNG on
 * localhost is a normal setup).
 */

import { routeFetchThroughProxy } from '../../net/proxy-transport';

export type SearchProvider = 'brave' | 'tavily' | 'searxng';

/**
 * Providers whose own search `web_search` uses when no search API is configured (through the
 * `webSearch` server-side tool): Anthropic's web search tool. Kept here, away from zod, because
 * the CLI reads it at start-up to decide whether `web_search` is offered.
 */
const NATIVE_SEARCH_PROVIDERS: ReadonlySet<string> = new Set(['anthropic']);

export function hasNativeWebSearch(providerType: string): boolean {
  return NATIVE_SEARCH_PROVIDERS.has(providerType);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A configured search API, resolved from settings and the environment. */
export interface WebSearchBackend {
  provider: SearchProvider;
  /** The full search endpoint (`…/res/v1/web/search`, `…/search`). */
  endpoint: string;
  /** Absent when the variable is not set (SearXNG needs none). */
  apiKey?: string;
  /** The variable the key is read from, for the message when it is missing. */
  apiKeyEnv?: string;
  maxResults: number;
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** How each provider is reached by default. */
const PROVIDERS: Record<SearchProvider, { label: string; base?: string; path: string; keyEnv?: string }> = {
  brave: {
    label: 'Brave Search',
    base: 'https://api.search.brave.com',
    path: '/res/v1/web/search',
    keyEnv: 'BRAVE_API_KEY',
  },
  tavily: { label: 'Tavily', base: 'https://api.tavily.com', path: '/search', keyEnv: 'TAVILY_API_KEY' },
  searxng: { label: 'SearXNG', path: '/search' },
};

const DEFAULT_MAX_RESULTS = 5;
const TIMEOUT_MS = 15_000;
/** Characters kept per snippet: results are pointers, web_fetch reads the page. */
const MAX_SNIPPET_CHARS = 500;

export function searchProviderLabel(provider: SearchProvider): string {
  return PROVIDERS[provider].label;
}

/**
 * The backend `tools.webSearch` names, or undefined when none is configured. A SearXNG without
 * `baseUrl` (or `SEARXNG_URL`) is an error: it has no public default.
 */
export function resolveWebSearchBackend(
  settings:
    | { provider?: SearchProvider; baseUrl?: string; apiKeyEnv?: string; maxResults?: number }
    | undefined,
  env: NodeJS.ProcessEnv,
): WebSearchBackend | { error: string } | undefined {
  const provider = settings?.provider;
  if (!provider) return undefined;
  const known = PROVIDERS[provider];
  if (!known)
    return { error: `tools.webSearch.provider "${String(provider)}" is not one of brave, tavily, searxng.` };
  const base = settings?.baseUrl ?? (provider === 'searxng' ? env.SEARXNG_URL : undefined) ?? known.base;
  if (!base) {
    return {
      error:
        'tools.webSearch.provider "searxng" needs the instance\'s address: set tools.webSearch.baseUrl or SEARXNG_URL.',
    };
  }
  let endpoint: string;
  try {
    const url = new URL(base);
    // A base with a path (a proxy, `https://host/searx`) keeps it; the API path goes after.
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${known.path}`;
    endpoint = url.toString();
  } catch {
    return { error: `tools.webSearch.baseUrl "${base}" is not a URL.` };
  }
  const keyEnv = settings?.apiKeyEnv ?? known.keyEnv;
  const apiKey = keyEnv ? env[keyEnv] : undefined;
  const maxResults = settings?.maxResults ?? DEFAULT_MAX_RESULTS;
  return {
    provider,
    endpoint,
    maxResults,
    ...(apiKey ? { apiKey } : {}),
    ...(keyEnv ? { apiKeyEnv: keyEnv } : {}),
  };
}

/** Runs one search; throws with a message for the model on any failure. */
export async function searchWeb(
  backend: WebSearchBackend,
  query: string,
  signal: AbortSignal,
): Promise<SearchResult[]> {
  const label = PROVIDERS[backend.provider].label;
  if (backend.provider !== 'searxng' && !backend.apiKey) {
    throw new Error(`${label} needs an API key: ${backend.apiKeyEnv ?? 'the key variable'} is not set.`);
  }
  const request = buildRequest(backend, query);
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  let response: Response;
  try {
    await routeFetchThroughProxy();
    response = await fetch(request.url, { ...request.init, signal: AbortSignal.any([signal, timeout]) });
  } catch (error) {
    if (signal.aborted) throw error;
    if (timeout.aborted) throw new Error(`${label} did not answer within ${TIMEOUT_MS / 1000} s.`);
    throw new Error(`${label} could not be reached at ${backend.endpoint}: ${errorMessage(error)}`);
  }
  const body = await response.text();
  if (!response.ok) {
    throw new Error(
      `${label} answered HTTP ${response.status}: ${body.slice(0, 300).trim() || response.statusText}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error(`${label} answered with something that is not JSON.`);
  }
  return parseResults(backend.provider, parsed).slice(0, backend.maxResults);
}

function buildRequest(backend: WebSearchBackend, query: string): { url: string; init: RequestInit } {
  const url = new URL(backend.endpoint);
  const accept = { accept: 'application/json' };
  switch (backend.provider) {
    case 'brave':
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(backend.maxResults));
      return {
        url: url.toString(),
        init: { headers: { ...accept, 'x-subscription-token': backend.apiKey ?? '' } },
      };
    case 'tavily':
      return {
        url: url.toString(),
        init: {
          method: 'POST',
          headers: {
            ...accept,
            'content-type': 'application/json',
            authorization: `Bearer ${backend.apiKey ?? ''}`,
          },
          body: JSON.stringify({ query, max_results: backend.maxResults, search_depth: 'basic' }),
        },
      };
    case 'searxng':
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      return {
        url: url.toString(),
        init: {
          headers: { ...accept, ...(backend.apiKey ? { authorization: `Bearer ${backend.apiKey}` } : {}) },
        },
      };
  }
}

/** Brave: `web.results[]{title,url,description}`; Tavily and SearXNG: `results[]{title,url,content}`. */
function parseResults(provider: SearchProvider, body: unknown): SearchResult[] {
  const list = provider === 'brave' ? field(field(body, 'web'), 'results') : field(body, 'results');
  if (!Array.isArray(list)) return [];
  const results: SearchResult[] = [];
  for (const item of list) {
    const url = field(item, 'url');
    if (typeof url !== 'string' || url === '') continue;
    const title = field(item, 'title');
    const snippet = field(item, provider === 'brave' ? 'description' : 'content');
    results.push({
      title: typeof title === 'string' && title.trim() ? stripTags(title) : url,
      url,
      snippet: typeof snippet === 'string' ? stripTags(snippet).slice(0, MAX_SNIPPET_CHARS) : '',
    });
  }
  return results;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** Brave marks the query words with `<strong>`; snippets are plain text for the model. */
function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
