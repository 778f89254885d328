import type { UsageMetadata } from '../contracts/messages';
import type { ApiCallObserver } from '../contracts/observers';
import type { CompletedToolCall, ToolDecision } from '../scheduler/scheduler';

export interface TokenStats {
  /** prompt − cached, floored at 0 */
  input: number;
  prompt: number;
  candidates: number;
  total: number;
  cached: number;
  thoughts: number;
  tool: number;
}

export interface ApiStats {
  totalRequests: number;
  totalErrors: number;
  totalLatencyMs: number;
  errorsByType: Record<string, number>;
}

export interface ModelStats {
  api: ApiStats;
  tokens: TokenStats;
  roles: Record<
    string,
    { totalRequests: number; totalErrors: number; totalLatencyMs: number; tokens: TokenStats }
  >;
}

type DecisionCounts = Record<ToolDecision, number>;

export interface ToolNameStats {
  count: number;
  success: number;
  fail: number;
  durationMs: number;
  decisions: DecisionCounts;
}

export interface SessionStatsSnapshot {
  models: Record<string, ModelStats>;
  tools: {
    totalCalls: number;
    totalSuccess: number;
    totalFail: number;
    totalDurationMs: number;
    totalDecisions: DecisionCounts;
    byName: Record<string, ToolNameStats>;
  };
  files: { totalLinesAdded: number; totalLinesRemoved: number };
}

const emptyTokens = (): TokenStats => ({
  input: 0,
  prompt: 0,
  candidates: 0,
  total: 0,
  cached: 0,
  thoughts: 0,
  tool: 0,
});
const emptyDecisions = (): DecisionCounts => ({ accept: 0, reject: 0, modify: 0, auto_accept: 0 });

/** The counts summed over every model. */
export interface StatsTotals {
  requests: number;
  errors: number;
  tokens: TokenStats;
  latencyMs: number;
}

/**
 * What a session used: model requests, tokens by kind and latency per model; tool calls by name
 * with outcomes, decisions and durations; lines added and removed by edits. The JSON shape is the
 * one `-o json` prints.
 */
export class SessionStats implements ApiCallObserver {
  private readonly data: SessionStatsSnapshot = {
    models: {},
    tools: {
      totalCalls: 0,
      totalSuccess: 0,
      totalFail: 0,
      totalDurationMs: 0,
      totalDecisions: emptyDecisions(),
      byName: {},
    },
    files: { totalLinesAdded: 0, totalLinesRemoved: 0 },
  };

  constructor(private readonly role = 'main') {}

  onApiResponse(info: { model: string; durationMs: number; usage: UsageMetadata | undefined }): void {
    this.recordResponse(this.role, info);
  }

  onApiError(info: { model: string; durationMs: number; errorType: string }): void {
    this.recordError(this.role, info);
  }

  /**
   * An observer that counts into these stats under another role (`utility_compressor`,
   * `utility_tool`, … as Gemini CLI names them), for model calls outside the conversation.
   */
  forRole(role: string): ApiCallObserver {
    return {
      onApiResponse: (info) => this.recordResponse(role, info),
      onApiError: (info) => this.recordError(role, info),
    };
  }

  private recordResponse(
    roleName: string,
    info: { model: string; durationMs: number; usage: UsageMetadata | undefined },
  ): void {
    const model = this.model(info.model);
    const role = this.roleOf(model, roleName);
    const latency = Math.round(info.durationMs);
    model.api.totalRequests += 1;
    model.api.totalLatencyMs += latency;
    role.totalRequests += 1;
    role.totalLatencyMs += latency;
    if (info.usage) {
      addUsage(model.tokens, info.usage);
      addUsage(role.tokens, info.usage);
    }
  }

  private recordError(
    roleName: string,
    info: { model: string; durationMs: number; errorType: string },
  ): void {
    const model = this.model(info.model);
    const role = this.roleOf(model, roleName);
    const latency = Math.round(info.durationMs);
    model.api.totalRequests += 1;
    model.api.totalErrors += 1;
    model.api.totalLatencyMs += latency;
    model.api.errorsByType[info.errorType] = (model.api.errorsByType[info.errorType] ?? 0) + 1;
    role.totalRequests += 1;
    role.totalErrors += 1;
    role.totalLatencyMs += latency;
  }

  recordToolCall(call: CompletedToolCall): void {
    const tools = this.data.tools;
    tools.byName[call.request.name] ??= {
      count: 0,
      success: 0,
      fail: 0,
      durationMs: 0,
      decisions: emptyDecisions(),
    };
    const byName = tools.byName[call.request.name]!;
    const succeeded = call.response.status === 'success';
    tools.totalCalls += 1;
    byName.count += 1;
    if (succeeded) {
      tools.totalSuccess += 1;
      byName.success += 1;
    } else {
      tools.totalFail += 1;
      byName.fail += 1;
    }
    tools.totalDurationMs += call.response.durationMs;
    byName.durationMs += call.response.durationMs;
    if (call.decision) {
      tools.totalDecisions[call.decision] += 1;
      byName.decisions[call.decision] += 1;
    }
    if (call.diffStat && succeeded) {
      this.data.files.totalLinesAdded += call.diffStat.linesAdded;
      this.data.files.totalLinesRemoved += call.diffStat.linesRemoved;
    }
  }

  /** Totals over every model. */
  totals(): StatsTotals {
    const tokens = emptyTokens();
    let requests = 0;
    let errors = 0;
    let latencyMs = 0;
    for (const model of Object.values(this.data.models)) {
      requests += model.api.totalRequests;
      errors += model.api.totalErrors;
      latencyMs += model.api.totalLatencyMs;
      for (const key of Object.keys(tokens) as (keyof TokenStats)[]) tokens[key] += model.tokens[key];
    }
    return { requests, errors, tokens, latencyMs };
  }

  snapshot(): SessionStatsSnapshot {
    return structuredClone(this.data);
  }

  /**
   * The live counts, not a copy: for a reader that serialises them at once and keeps nothing (the
   * session recorder, at every turn boundary, where a copy per turn is wasted).
   */
  current(): Readonly<SessionStatsSnapshot> {
    return this.data;
  }

  /** Restores counts (resume). */
  restore(snapshot: SessionStatsSnapshot): void {
    Object.assign(this.data, structuredClone(snapshot));
  }

  private model(name: string): ModelStats {
    this.data.models[name] ??= {
      api: { totalRequests: 0, totalErrors: 0, totalLatencyMs: 0, errorsByType: {} },
      tokens: emptyTokens(),
      roles: {},
    };
    return this.data.models[name]!;
  }

  private roleOf(model: ModelStats, role: string) {
    model.roles[role] ??= {
      totalRequests: 0,
      totalErrors: 0,
      totalLatencyMs: 0,
      tokens: emptyTokens(),
    };
    return model.roles[role]!;
  }
}

function addUsage(tokens: TokenStats, usage: UsageMetadata): void {
  const prompt = usage.promptTokenCount ?? 0;
  const cached = usage.cachedContentTokenCount ?? 0;
  tokens.prompt += prompt;
  tokens.cached += cached;
  tokens.input += Math.max(0, prompt - cached);
  tokens.candidates += usage.candidatesTokenCount ?? 0;
  tokens.thoughts += usage.thoughtsTokenCount ?? 0;
  tokens.tool += usage.toolUsePromptTokenCount ?? 0;
  tokens.total += usage.totalTokenCount ?? 0;
}
