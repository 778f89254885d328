/**
 * How kodo marks a thought part that carries an OpenAI reasoning item's encrypted content (see
 * openai-responses-convert.ts). Kept apart so the provider router can recognise such parts
 * without loading the OpenAI converters (as anthropic-signatures.ts does for Anthropic's).
 */
export const OPENAI_REASONING_PREFIX = 'openai-reasoning:';

/** Whether a part's signature carries an OpenAI reasoning item (sent back only to OpenAI). */
export function isOpenAIReasoningSignature(signature: string | undefined): boolean {
  return signature?.startsWith(OPENAI_REASONING_PREFIX) === true;
}
