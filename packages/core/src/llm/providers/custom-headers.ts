/**
 * Extra HTTP headers a provider's requests carry (a gateway's tenant or routing header, an
 * organisation id): `providers.<name>.headers` in settings, and for the built-in Anthropic
 * provider Claude Code's `ANTHROPIC_CUSTOM_HEADERS` (one `Name: value` per line). Values are
 * treated as secrets: they go on the wire only, never into logs, recordings or error messages.
 */

import { ProviderConfigError } from './provider-config-error';

/** RFC 9110 token characters: what a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers kodo sets itself and a custom one may not replace: the key (sent as the provider
 * expects) and what the body's framing depends on.
 */
const RESERVED = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'content-length', 'host']);

/** Parses `Name: value` lines (blank lines skipped); `where` names the source in errors. */
export function parseHeaderLines(text: string, where: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    // The value is never echoed: it may be a secret.
    if (colon <= 0) throw new ProviderConfigError(`${where}: line ${index + 1} is not "Name: value".`);
    Object.assign(
      headers,
      checkedHeaders({ [line.slice(0, colon).trim()]: line.slice(colon + 1).trim() }, where),
    );
  }
  return headers;
}

/** Names checked and lower-cased (HTTP names are case-insensitive); a bad one is a config error. */
export function checkedHeaders(headers: Record<string, unknown>, where: string): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new ProviderConfigError(`${where}: "${name}" is not a header name.`);
    const lower = name.toLowerCase();
    if (RESERVED.has(lower))
      throw new ProviderConfigError(`${where}: "${name}" is set by kodo itself and cannot be replaced.`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value))
      throw new ProviderConfigError(`${where}: the value of "${name}" must be a one-line string.`);
    checked[lower] = value;
  }
  return checked;
}
