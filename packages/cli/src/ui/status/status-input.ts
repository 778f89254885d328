import type { ApprovalMode, Session } from '@kodo/core/engine';

/**
 * The JSON a status line command reads on stdin: Claude Code's field names where it documents
 * them (so its scripts run unchanged), plus kodo's `approval_mode` and `sandbox`.
 */
export interface StatusLineInput {
  hook_event_name: 'Status';
  session_id: string;
  cwd: string;
  model: { id: string; display_name: string };
  workspace: { current_dir: string; project_dir: string };
  version: string;
  output_style: { name: string };
  cost: {
    total_cost_usd: number | null;
    total_duration_ms: number;
    total_api_duration_ms: number;
    total_lines_added: number;
    total_lines_removed: number;
  };
  context_window: {
    total_input_tokens: number;
    total_output_tokens: number;
    context_window_size: number;
    used_percentage: number | null;
    remaining_percentage: number | null;
    current_usage: { input_tokens: number; output_tokens: number } | null;
  };
  exceeds_200k_tokens: boolean;
  approval_mode: ApprovalMode;
  sandbox: string | null;
}

export function statusLineInput(
  session: Session,
  place: {
    cwd: string;
    version: string;
    startedAt: number;
    now: number;
    approvalMode: ApprovalMode;
    sandbox: string | undefined;
    lastUsage: { promptTokenCount?: number; candidatesTokenCount?: number } | undefined;
  },
): StatusLineInput {
  const snapshot = session.stats.snapshot();
  const totals = session.stats.totals();
  const window = session.contextWindow(session.model);
  const prompt = place.lastUsage?.promptTokenCount;
  const output = place.lastUsage?.candidatesTokenCount ?? 0;
  const used =
    prompt === undefined ? null : Math.min(100, Math.round(((prompt + output) / window) * 1000) / 10);
  const cost = session.estimatedCost();
  return {
    hook_event_name: 'Status',
    session_id: session.id,
    cwd: place.cwd,
    model: { id: session.model, display_name: session.model },
    workspace: { current_dir: place.cwd, project_dir: place.cwd },
    version: place.version,
    output_style: { name: 'default' },
    cost: {
      total_cost_usd: cost ?? null,
      total_duration_ms: Math.max(0, place.now - place.startedAt),
      total_api_duration_ms: Math.round(totals.latencyMs),
      total_lines_added: snapshot.files.totalLinesAdded,
      total_lines_removed: snapshot.files.totalLinesRemoved,
    },
    context_window: {
      total_input_tokens: totals.tokens.prompt,
      total_output_tokens: totals.tokens.candidates + totals.tokens.thoughts,
      context_window_size: window,
      used_percentage: used,
      remaining_percentage: used === null ? null : Math.round((100 - used) * 10) / 10,
      current_usage: prompt === undefined ? null : { input_tokens: prompt, output_tokens: output },
    },
    exceeds_200k_tokens: (prompt ?? 0) + output > 200_000,
    approval_mode: place.approvalMode,
    sandbox: place.sandbox ?? null,
  };
}
