import type { Agent } from 'node:http';
import { loadPart } from '../on-demand';
import { proxyFor, proxySettings } from './proxy-env';

/**
 * kodo's one seam between its network clients and a proxy. Everything that goes out — model
 * calls (the lean HTTP client), local-server probes, web fetch, web search, MCP over HTTP/SSE
 * and its OAuth sign-in — passes here:
 * - clients built on node:http(s) ask `agentFor(url)` for the agent of each request;
 * - clients built on fetch (web search, the MCP SDK and its OAuth) use Node's fetch, whose
 *   global dispatcher `routeFetchThroughProxy` replaces with undici's EnvHttpProxyAgent.
 * The proxy libraries load only when a proxy variable is set (proxy-env.ts).
 */

type AgentModule = { agentFor(url: URL, proxy: string): Agent };
let agents: Promise<AgentModule> | undefined;
let fetchRouted: Promise<void> | undefined;

/** The agent a node:http(s) request to `url` needs, or undefined to go direct. */
export async function agentFor(url: URL, env: NodeJS.ProcessEnv = process.env): Promise<Agent | undefined> {
  const proxy = proxyFor(url, proxySettings(env));
  if (!proxy) return undefined;
  agents ??= loadPart.proxyAgents();
  return (await agents).agentFor(url, proxy);
}

/**
 * Routes Node's fetch through the proxy the environment names, once per process, by the same
 * rules as the node:http clients (proxy-env.ts: NO_PROXY, loopback direct). Does nothing, and
 * loads nothing, when no proxy is set.
 */
export function routeFetchThroughProxy(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const settings = proxySettings(env);
  if (!settings) return Promise.resolve();
  fetchRouted ??= loadPart
    .proxyDispatcher()
    .then(({ installProxyDispatcher }) => installProxyDispatcher(settings));
  return fetchRouted;
}
