/**
 * Structured output on Gemini: the final answer is constrained by the API itself
 * (`responseMimeType: application/json` and `responseJsonSchema`, a plain JSON Schema).
 */
export function geminiStructuredOutput(schema: Record<string, unknown>): Record<string, unknown> {
  return { responseMimeType: 'application/json', responseJsonSchema: schema };
}
