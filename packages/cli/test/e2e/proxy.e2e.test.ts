/**
 * kodo behind a forward proxy (HTTPS_PROXY/HTTP_PROXY/NO_PROXY, either case): model calls, web
 * MCP over HTTP go through it (web fetch and Node's fetch: packages/core/test/net/proxy.test.ts), NO_PROXY sends a host direct. The upstream servers are
 * named `kodo-upstream.test`, which only the proxy resolves: a request that reached them went
 * through the proxy, and one sent direct cannot resolve.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ForwardProxy,
  type GeminiMock,
  geminiFunctionCallReply,
  geminiTextReply,
  PROXY_ONLY_HOST,
  type RunningMcpServer,
  runKodo,
  startEverythingHttpServer,
  startForwardProxy,
  startGeminiMock,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();
let proxy: ForwardProxy | undefined;
let mock: GeminiMock | undefined;
let mcp: RunningMcpServer | undefined;
afterEach(async () => {
  await proxy?.close();
  await mock?.close();
  await mcp?.stop();
  proxy = mock = mcp = undefined;
});

/** The URL with its host replaced by the name only the proxy resolves. */
const viaProxyName = (url: string) => {
  const parsed = new URL(url);
  parsed.hostname = PROXY_ONLY_HOST;
  return parsed.href.replace(/\/$/, '');
};

function kodo(args: string[], env: Record<string, string>) {
  return runKodo(args, {
    cwd: dirs.workspace,
    env: {
      KODO_HOME: dirs.home,
      GEMINI_CLI_HOME: dirs.home,
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: viaProxyName(mock!.url),
      KODO_RETRY_BASE_MS: '5',
      KODO_MAX_RETRIES: '0',
      ...env,
    },
    timeoutMs: 30_000,
  });
}

describe('kodo behind a proxy', () => {
  it('sends model calls through HTTP_PROXY', async () => {
    proxy = await startForwardProxy();
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Through the proxy.') }] });
    const run = await kodo(['-p', 'hello', '-m', 'gemini-test'], { HTTP_PROXY: proxy.url });
    expect(run.stdout).toBe('Through the proxy.\n');
    expect(run.code).toBe(0);
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]).toMatch(new RegExp(`^POST http://${PROXY_ONLY_HOST}:\\d+/.*gemini-test`));
  });

  it('reads the lower-case names too, and NO_PROXY sends the host direct', async () => {
    proxy = await startForwardProxy();
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Again.') }] });
    const proxied = await kodo(['-p', 'hello', '-m', 'gemini-test'], { http_proxy: proxy.url });
    expect(proxied.stdout).toBe('Again.\n');
    expect(proxy.seen).toHaveLength(1);
    const direct = await kodo(['-p', 'hello', '-m', 'gemini-test'], {
      HTTP_PROXY: proxy.url,
      NO_PROXY: `localhost,.upstream.test,${PROXY_ONLY_HOST}`,
    });
    // Direct, the name does not resolve: the run fails and the proxy saw nothing more.
    expect(direct.code).not.toBe(0);
    expect(direct.stderr).toContain(PROXY_ONLY_HOST);
    expect(proxy.seen).toHaveLength(1);
  });

  it('talks to an MCP server over Streamable HTTP through the proxy', async () => {
    proxy = await startForwardProxy();
    mcp = await startEverythingHttpServer('streamableHttp');
    mkdirSync(join(dirs.workspace, '.kodo'), { recursive: true });
    writeFileSync(
      join(dirs.workspace, '.kodo', 'settings.json'),
      JSON.stringify({ mcpServers: { everything: { httpUrl: viaProxyName(mcp.url), trust: true } } }),
    );
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_everything_echo', { message: 'via proxy' }) },
        { chunks: geminiTextReply('Done.') },
      ],
    });
    const run = await kodo(['-p', 'echo', '-m', 'gemini-test'], { HTTP_PROXY: proxy.url });
    expect(run.code).toBe(0);
    expect(JSON.stringify(mock.requests[1]!.body)).toContain('Echo: via proxy');
    expect(proxy.seen.some((line) => line.includes(`${PROXY_ONLY_HOST}:`))).toBe(true);
  });
});
