/** A JSON-style object: not null, not an array (what parsed settings, manifests and hook output hold). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
