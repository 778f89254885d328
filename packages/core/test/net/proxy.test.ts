import { createServer, type Server } from 'node:http';
import { type ForwardProxy, PROXY_ONLY_HOST, startForwardProxy } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { proxyFor, proxySettings } from '../../src/net/proxy-env';
import { routeFetchThroughProxy } from '../../src/net/proxy-transport';
import { BlockedHostError, guardedLookup } from '../../src/tools/web/guarded-lookup';
import { fetchPage } from '../../src/tools/web/http-fetch';

describe('the proxy variables', () => {
  const url = (href: string) => new URL(href);

  it('are read in either case; https falls back to HTTP_PROXY; none set means direct', () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ https_proxy: 'http://p:1' })).toEqual({ https: 'http://p:1' });
    expect(proxySettings({ HTTP_PROXY: 'http://p:2', no_proxy: 'corp' })).toEqual({
      https: 'http://p:2',
      http: 'http://p:2',
      noProxy: 'corp',
    });
    const settings = proxySettings({ HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://h:1' });
    expect(proxyFor(url('https://api.example.com/v1'), settings)).toBe('http://s:1');
    expect(proxyFor(url('http://api.example.com/v1'), settings)).toBe('http://h:1');
  });

  it('NO_PROXY: names, domain suffixes, ports and *; loopback is always direct', () => {
    const settings = proxySettings({
      HTTPS_PROXY: 'http://p:1',
      NO_PROXY: 'internal.example, .corp.test,git.io:8443',
    });
    expect(proxyFor(url('https://internal.example/x'), settings)).toBeUndefined();
    expect(proxyFor(url('https://a.internal.example/x'), settings)).toBeUndefined();
    expect(proxyFor(url('https://notinternal.example/x'), settings)).toBe('http://p:1');
    expect(proxyFor(url('https://b.corp.test/x'), settings)).toBeUndefined();
    expect(proxyFor(url('https://git.io:8443/x'), settings)).toBeUndefined();
    expect(proxyFor(url('https://git.io/x'), settings)).toBe('http://p:1');
    for (const local of ['http://localhost:11434', 'http://127.0.0.1:8080', 'http://[::1]:1234']) {
      expect(proxyFor(url(local), settings)).toBeUndefined();
    }
    expect(
      proxyFor(url('https://x.y'), proxySettings({ HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' })),
    ).toBeUndefined();
  });
});

describe('requests through a forward proxy', () => {
  let proxy: ForwardProxy | undefined;
  let server: Server | undefined;
  const saved = { ...process.env };
  afterEach(async () => {
    process.env = { ...saved };
    await proxy?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    proxy = server = undefined;
  });

  async function upstream(body: string): Promise<number> {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(body));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  it('web fetch goes through it, and the private-address guard still checks what this machine resolves', async () => {
    proxy = await startForwardProxy();
    const port = await upstream('proxied page');
    process.env.HTTP_PROXY = proxy.url;
    const options = {
      signal: new AbortController().signal,
      timeoutMs: 5000,
      maxBytes: 1000,
      maxRedirects: 2,
      lookup: guardedLookup({ lookup: async () => [{ address: '10.0.0.5', family: 4 }] }),
      isRefused: () => false,
    };
    // A name that resolves here to a private address is refused before the proxy is asked.
    await expect(fetchPage(`http://intranet.example:${port}/`, options)).rejects.toBeInstanceOf(
      BlockedHostError,
    );
    expect(proxy.seen).toEqual([]);
    // A name this machine cannot resolve is left to the proxy.
    const page = await fetchPage(`http://${PROXY_ONLY_HOST}:${port}/doc`, {
      ...options,
      lookup: guardedLookup({
        lookup: async () => {
          throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
        },
      }),
    });
    expect(page.body.toString()).toBe('proxied page');
    expect(proxy.seen).toEqual([`GET http://${PROXY_ONLY_HOST}:${port}/doc`]);
  });

  it("Node's fetch (web search, MCP, OAuth) goes through it, NO_PROXY hosts direct", async () => {
    proxy = await startForwardProxy();
    const port = await upstream('fetched');
    await routeFetchThroughProxy({ HTTP_PROXY: proxy.url, NO_PROXY: 'direct.example' });
    const response = await fetch(`http://${PROXY_ONLY_HOST}:${port}/q`);
    expect(await response.text()).toBe('fetched');
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]).toContain(`${PROXY_ONLY_HOST}:${port}`);
    // Loopback goes direct: the proxy sees nothing more.
    expect(await (await fetch(`http://127.0.0.1:${port}/q`)).text()).toBe('fetched');
    await expect(
      fetch(`http://direct.example:${port}/q`, { signal: AbortSignal.timeout(5000) }),
    ).rejects.toThrow();
    expect(proxy.seen).toHaveLength(1);
  });
});
