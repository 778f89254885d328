import type { ToolRegistry } from '../../src/tools/registry';
import type { ToolContext, ToolError, ToolResult } from '../../src/tools/tool';
import { Workspace } from '../../src/tools/workspace';

export function toolContext(cwd = process.cwd()): ToolContext {
  return { workspace: new Workspace({ roots: [cwd] }), env: {}, shellInactivityTimeoutMs: 10_000 };
}

/** Builds and runs a registered tool; a validation error comes back as the result's error. */
export async function runRegistered(
  registry: ToolRegistry,
  name: string,
  args: Record<string, unknown>,
  onOutput?: (text: string) => void,
): Promise<Partial<ToolResult> & { error?: ToolError }> {
  const tool = await registry.load(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const built = tool.build(args, toolContext());
  if (!built.ok) return { error: built.error };
  return built.invocation.execute({
    signal: new AbortController().signal,
    ...(onOutput ? { onOutput } : {}),
  });
}
