import type { FreeformFormat } from '../../contracts/messages';
import type { Tool, ToolKind } from '../tool';

/** A built-in tool as the model sees it, known without loading the tool's code. */
export interface BuiltinToolSpec {
  name: string;
  displayName: string;
  kind: ToolKind;
  description: string;
  parametersJsonSchema: Record<string, unknown>;
  /** A freeform tool's grammar (see `FunctionDeclaration.freeform`). */
  freeform?: FreeformFormat;
}

/** The spec of a loaded tool: what `scripts/gen-tool-specs.mjs` writes for it. */
export function specOf(tool: Tool): BuiltinToolSpec {
  const { parametersJsonSchema, freeform } = tool.declaration();
  return {
    name: tool.name,
    displayName: tool.displayName,
    kind: tool.kind,
    description: tool.description,
    parametersJsonSchema,
    // Freeform tools (apply_patch) carry their grammar: the declaration is sent from the spec.
    ...(freeform ? { freeform } : {}),
  };
}
