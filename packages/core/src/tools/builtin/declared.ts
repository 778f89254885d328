import { loadBuiltinToolsModule } from '../../on-demand';
import type { LazyTool, Tool } from '../tool';
import { BUILTIN_TOOL_SPECS } from './specs.generated';

/**
 * The built-in tools, declared from their generated specs and loaded together on the first call
 * to any of them. This keeps zod and the tools' libraries off the path to the first request.
 */
export function lazyBuiltinTools(): LazyTool[] {
  let loading: Promise<Map<string, Tool>> | undefined;
  const loadAll = () => {
    loading ??= loadBuiltinToolsModule().then(
      (module) => new Map(module.builtinTools().map((tool) => [tool.name, tool])),
    );
    return loading;
  };
  return BUILTIN_TOOL_SPECS.map((spec) => {
    const declaration = {
      name: spec.name,
      description: spec.description,
      parametersJsonSchema: spec.parametersJsonSchema,
      ...(spec.freeform ? { freeform: spec.freeform } : {}),
    };
    return {
      name: spec.name,
      displayName: spec.displayName,
      kind: spec.kind,
      description: spec.description,
      declaration: () => declaration,
      async load() {
        const tool = (await loadAll()).get(spec.name);
        if (!tool) throw new Error(`built-in tool ${spec.name} is missing from the tools module`);
        return tool;
      },
    };
  });
}
