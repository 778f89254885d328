/** A JSON-style object: not null, not an array (what parsed settings, manifests and hook output hold). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A record whose `keys` all hold strings (checking data read back from a cache file). */
export function hasStringFields(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  return isRecord(value) && keys.every((key) => typeof value[key] === 'string');
}
