import { Agent, Dispatcher, ProxyAgent, setGlobalDispatcher } from 'undici';
import { type ProxySettings, proxyFor } from './proxy-env';

/**
 * Node's fetch, through the proxy: undici's ProxyAgent (a CONNECT tunnel per origin) for what
 * proxyFor sends there, a plain Agent for the rest. Set as the global dispatcher, which Node's
 * built-in fetch shares with the undici package. Loaded only when a proxy is set.
 */
class ProxyRouter extends Dispatcher {
  private readonly direct = new Agent();
  private readonly proxies = new Map<string, ProxyAgent>();

  constructor(private readonly settings: ProxySettings) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = typeof options.origin === 'string' ? new URL(options.origin) : options.origin;
    const proxy = origin ? proxyFor(origin, this.settings) : undefined;
    return (proxy ? this.proxyAgent(proxy) : this.direct).dispatch(options, handler);
  }

  private proxyAgent(proxy: string): ProxyAgent {
    let agent = this.proxies.get(proxy);
    if (!agent) {
      agent = new ProxyAgent(proxy);
      this.proxies.set(proxy, agent);
    }
    return agent;
  }

  override async close(): Promise<void> {
    await Promise.all([this.direct.close(), ...[...this.proxies.values()].map((agent) => agent.close())]);
  }

  override async destroy(): Promise<void> {
    await Promise.all([this.direct.destroy(), ...[...this.proxies.values()].map((agent) => agent.destroy())]);
  }
}

export function installProxyDispatcher(settings: ProxySettings): void {
  setGlobalDispatcher(new ProxyRouter(settings));
}
