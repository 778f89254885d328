import type { Settings } from '../config/settings-types';
import type { ApprovalMode } from '../scheduler/policy/policy';

/**
 * The one place that decides which approval mode a session may be in. Every route to a mode goes
 * through `decideApprovalMode` — the flags and the settings' default (resolveConfig), a key in the
 * UI, an ACP client, `kodo mcp serve`, the SDK, a tool (plan mode) — because the Session checks
 * its first mode and every change against it. A front end never decides this itself.
 */

/** Where a request for a mode comes from, for the refusal's wording. */
export type ApprovalModeSource = 'flag' | 'settings' | 'keys' | 'acp' | 'mcp_serve' | 'sdk' | 'tool';

/** What an administrator or the person has locked: the setting that forbids yolo, if any. */
export interface ApprovalLockdown {
  yoloRefusedBy?: 'admin.secureModeEnabled' | 'security.disableYoloMode';
}

export type ApprovalModeDecision = { ok: true; mode: ApprovalMode } | { ok: false; message: string };

/** A mode the lock-down forbids, asked for where kodo cannot answer with a message (a start). */
export class ApprovalModeError extends Error {
  override readonly name = 'ApprovalModeError';
}

/** The lock-down the settings ask for (the merge keeps a `true` from any scope: settings.ts). */
export function approvalLockdown(settings: Pick<Settings, 'security' | 'admin'>): ApprovalLockdown {
  if (settings.admin?.secureModeEnabled === true) return { yoloRefusedBy: 'admin.secureModeEnabled' };
  if (settings.security?.disableYoloMode === true) return { yoloRefusedBy: 'security.disableYoloMode' };
  return {};
}

const ASKED_BY: Record<ApprovalModeSource, string> = {
  flag: '-y/--approval-mode yolo',
  settings: 'general.defaultApprovalMode',
  keys: 'Switching to YOLO mode',
  acp: "The editor's request for YOLO mode",
  mcp_serve: 'approval-mode yolo',
  sdk: "approvalMode: 'yolo'",
  tool: 'A switch to YOLO mode',
};

/**
 * The mode a session gets when `mode` is asked for: refused when the lock-down forbids it; in a
 * folder that is not trusted, always `default` (nothing of the folder's may loosen approval).
 */
export function decideApprovalMode(
  request: { mode: ApprovalMode; source: ApprovalModeSource },
  context: { lockdown: ApprovalLockdown; trusted?: boolean },
): ApprovalModeDecision {
  if (request.mode === 'yolo' && context.lockdown.yoloRefusedBy) {
    return {
      ok: false,
      message: `${ASKED_BY[request.source]} is refused: YOLO mode is disabled by the settings (${context.lockdown.yoloRefusedBy}).`,
    };
  }
  if (context.trusted === false) return { ok: true, mode: 'default' };
  return { ok: true, mode: request.mode };
}
