import type { FunctionDeclaration } from '../contracts/messages';
import type { ContextWindowSource } from '../llm/context-windows';
import { contextWindowOrDefault } from '../llm/models';
import { compactDeclarations } from '../tools/builtin/compact-specs';

/**
 * Which tool profile a request gets (`tools.profile`). Set: that one. Unset: `compact` when the
 * model's context window, as its server reported it, is at most `COMPACT_WINDOW_TOKENS` (the
 * full profile alone would take half of it or more), else `full` — so cloud models, whose
 * windows are never discovered, always get every tool.
 */
export const COMPACT_WINDOW_TOKENS = 8_192;

export type ToolProfile = 'full' | 'compact';

export function toolProfileFor(
  configured: ToolProfile | undefined,
  windows: ContextWindowSource | undefined,
  model: string,
): ToolProfile {
  if (configured) return configured;
  const window = windows?.known(model);
  return window !== undefined && window <= COMPACT_WINDOW_TOKENS ? 'compact' : 'full';
}

/** The declarations of a profile, from the full list the policy lets the model see. */
export function declarationsFor(profile: ToolProfile, full: FunctionDeclaration[]): FunctionDeclaration[] {
  return profile === 'compact' ? compactDeclarations(full) : full;
}

/** The window a session plans with: a local server's report wins over the model table's (1M for unknown models). */
export function plannedWindow(windows: ContextWindowSource | undefined): (model: string) => number {
  return (model) => windows?.known(model) ?? contextWindowOrDefault(model);
}
