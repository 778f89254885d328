import type { GenerateResponse } from '../../contracts/messages';

/**
 * Structured output on Anthropic: one tool whose input schema is the answer's schema, and
 * `tool_choice` forcing it, so the answer arrives as that tool's input. The stream is then given
 * back as text (`unwrapAnthropicStructuredOutput`): to the rest of kodo it is the JSON answer.
 */
export const ANTHROPIC_STRUCTURED_TOOL = 'structured_output';

type Json = Record<string, unknown>;

/** Changes a Messages API body so the answer must be the forced tool's input. */
export function applyAnthropicStructuredOutput(body: Json, schema: Json): void {
  body.tools = [
    {
      name: ANTHROPIC_STRUCTURED_TOOL,
      description: 'Give the final answer. Its input is the answer, matching the requested JSON schema.',
      input_schema: schema,
    },
  ];
  body.tool_choice = { type: 'tool', name: ANTHROPIC_STRUCTURED_TOOL };
  // A forced tool choice is refused while extended thinking is on.
  delete body.thinking;
}

/** The forced tool's call becomes the answer's text (its input as JSON). */
export async function* unwrapAnthropicStructuredOutput(
  stream: AsyncIterable<GenerateResponse>,
): AsyncGenerator<GenerateResponse> {
  for await (const chunk of stream) {
    const candidates = chunk.candidates?.map((candidate) => {
      const parts = candidate.content?.parts;
      if (!parts?.some((part) => part.functionCall?.name === ANTHROPIC_STRUCTURED_TOOL)) return candidate;
      return {
        ...candidate,
        content: {
          ...candidate.content!,
          parts: parts.map((part) =>
            part.functionCall?.name === ANTHROPIC_STRUCTURED_TOOL
              ? { text: JSON.stringify(part.functionCall.args ?? {}) }
              : part,
          ),
        },
      };
    });
    yield candidates ? { ...chunk, candidates } : chunk;
  }
}
