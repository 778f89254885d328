/** The JSON kind of a value, for messages about a wrong one: `null`, `array`, `object`, `string`… */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
