import type { HookSystem } from '../hooks/hook-system';
import { hookContextBlock, type SessionEndReason, type SessionStartSource } from '../hooks/types';

// The hooks that mark a session's life rather than a prompt's or a tool's: SessionStart,
// SessionEnd, and PreCompress before a compression the session did not ask for.

/**
 * Fires SessionStart (`startup`, `resume` or `clear`); the hooks' added context as a
 * `<hook_context>` block, if they added any.
 */
export async function sessionStartContext(
  hooks: HookSystem,
  source: SessionStartSource,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const { additionalContext } = await hooks.sessionStart(source, signal);
  return additionalContext ? hookContextBlock(additionalContext) : undefined;
}

/**
 * Fires SessionEnd. Its result is only shown, so nothing waits for it in the loop; this settles
 * once it and any other advisory hook still running have finished (each within its timeout).
 */
export async function sessionEnded(hooks: HookSystem, reason: SessionEndReason): Promise<void> {
  await hooks.sessionEnd(reason);
  await hooks.settle();
}

/**
 * PreCompress (`auto`) fires before every request with history, as in Gemini CLI; the request
 * waits for it only when a compression follows (docs/hooks.md says why).
 */
export async function preCompressAuto(
  hooks: HookSystem | undefined,
  check: { compressing: boolean },
): Promise<void> {
  const fired = hooks?.preCompress('auto');
  if (check.compressing) await fired;
}
