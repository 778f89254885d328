import type { InputSources, Runtime } from '@kodo/core/engine';

/**
 * Where a runtime's sessions find the names a line may use (core's input pipeline): custom
 * commands, skills and MCP prompts. Read per line, so an MCP server that connects late, or one
 * that goes away, shows at once.
 */
export function runtimeInputSources(runtime: Pick<Runtime, 'extensibility' | 'mcp'>): InputSources {
  return {
    commands: () => runtime.extensibility?.loaded.commands ?? [],
    skills: () => runtime.extensibility?.loaded.skills ?? [],
    ...(runtime.mcp ? { mcp: runtime.mcp } : {}),
  };
}
