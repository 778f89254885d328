/**
 * The proxy variables people set for command-line tools: HTTPS_PROXY, HTTP_PROXY, NO_PROXY, in
 * either case (lower case first, as curl reads them). Reading them costs nothing; the code that
 * talks to a proxy (proxy-transport.ts) loads only when one is set.
 */

export interface ProxySettings {
  /** For https:// targets (HTTPS_PROXY, else HTTP_PROXY, as curl and undici do). */
  https?: string;
  /** For http:// targets. */
  http?: string;
  /** NO_PROXY as written: hosts, domains (`.corp.example` or `corp.example`), `*`, `host:port`. */
  noProxy?: string;
}

function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value?.trim() ? value.trim() : undefined;
}

/** The proxy settings of the environment; undefined when no proxy is set. */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const http = variable(env, 'HTTP_PROXY');
  const https = variable(env, 'HTTPS_PROXY') ?? http;
  if (!http && !https) return undefined;
  const noProxy = variable(env, 'NO_PROXY');
  return { ...(https ? { https } : {}), ...(http ? { http } : {}), ...(noProxy ? { noProxy } : {}) };
}

/** The proxy a request to `url` goes through, or undefined when it goes direct. */
export function proxyFor(url: URL, settings: ProxySettings | undefined): string | undefined {
  if (!settings) return undefined;
  const proxy = url.protocol === 'https:' || url.protocol === 'wss:' ? settings.https : settings.http;
  if (!proxy || isLoopback(url) || bypasses(url, settings.noProxy)) return undefined;
  return proxy;
}

/** This machine's own servers (a local model server): a proxy elsewhere could never reach them. */
function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}

/** Whether NO_PROXY names the URL's host (curl's rules: suffix match on a dot boundary, `*` all). */
function bypasses(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const portMatch = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[|\]$/g, ''))!;
    const name = portMatch[1]!.replace(/^\*?\./, '');
    if (portMatch[2] && portMatch[2] !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}
