import { describe, expect, it } from 'vitest';
import { resolveWebSearchBackend } from '../../src/tools/web/search-api';

describe('tools.webSearch resolution', () => {
  it('is absent without a provider', () => {
    expect(resolveWebSearchBackend(undefined, {})).toBeUndefined();
    expect(resolveWebSearchBackend({ maxResults: 3 }, {})).toBeUndefined();
  });

  it('reads the key from the named variable; a base path is kept before the API path', () => {
    expect(resolveWebSearchBackend({ provider: 'brave' }, { BRAVE_API_KEY: 'b' })).toEqual({
      provider: 'brave',
      endpoint: 'https://api.search.brave.com/res/v1/web/search',
      apiKey: 'b',
      apiKeyEnv: 'BRAVE_API_KEY',
      maxResults: 5,
    });
    expect(
      resolveWebSearchBackend(
        { provider: 'tavily', baseUrl: 'https://proxy.example/tavily/', apiKeyEnv: 'MY_KEY', maxResults: 9 },
        { MY_KEY: 'k', TAVILY_API_KEY: 'ignored' },
      ),
    ).toEqual({
      provider: 'tavily',
      endpoint: 'https://proxy.example/tavily/search',
      apiKey: 'k',
      apiKeyEnv: 'MY_KEY',
      maxResults: 9,
    });
  });

  it('SearXNG takes SEARXNG_URL, and needs an address', () => {
    expect(
      resolveWebSearchBackend({ provider: 'searxng' }, { SEARXNG_URL: 'http://127.0.0.1:8888' }),
    ).toEqual({
      provider: 'searxng',
      endpoint: 'http://127.0.0.1:8888/search',
      maxResults: 5,
    });
    expect(resolveWebSearchBackend({ provider: 'searxng' }, {})).toEqual({
      error:
        'tools.webSearch.provider "searxng" needs the instance\'s address: set tools.webSearch.baseUrl or SEARXNG_URL.',
    });
    expect(resolveWebSearchBackend({ provider: 'searxng', baseUrl: 'not a url' }, {})).toEqual({
      error: 'tools.webSearch.baseUrl "not a url" is not a URL.',
    });
  });
});
