import type { FreeformFormat } from '../../contracts/messages';
import type { ToolKind } from '../tool';

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
