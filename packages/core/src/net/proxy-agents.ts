import type { Agent } from 'node:http';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';

/**
 * Agents for node:http(s) requests through a proxy: a CONNECT tunnel for https:// targets, the
 * absolute-URI form for http:// ones. One per proxy and scheme, so connections to the proxy are
 * reused. Loaded by proxy-transport.ts only when a proxy is set.
 */
const cache = new Map<string, Agent>();

export function agentFor(url: URL, proxy: string): Agent {
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  const key = `${secure ? 'https' : 'http'} ${proxy}`;
  let agent = cache.get(key);
  if (!agent) {
    agent = secure
      ? new HttpsProxyAgent(proxy, { keepAlive: true })
      : new HttpProxyAgent(proxy, { keepAlive: true });
    cache.set(key, agent);
  }
  return agent;
}
