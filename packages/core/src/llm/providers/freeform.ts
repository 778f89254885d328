import type { FunctionDeclaration } from '../../contracts/messages';

/**
 * The declarations a wire without grammar-constrained tools can carry: every tool but the
 * freeform ones (`apply_patch`). Only OpenAI's Responses API declares those (as `custom` tools);
 * Gemini, Anthropic and Chat Completions models keep `replace` and `write_file`.
 */
export function jsonSchemaTools(tools: FunctionDeclaration[] | undefined): FunctionDeclaration[] {
  return (tools ?? []).filter((tool) => tool.freeform === undefined);
}
