import { loadPart } from '../on-demand';
import type { CompletedToolCall } from '../scheduler/scheduler';

/**
 * What kodo reports about a session, when telemetry is on: prompts, model requests, tool calls,
 * compression, loops, hooks, and counters and latencies as metrics. Off by default; the
 * OpenTelemetry SDK is only imported when it is enabled (see `createTelemetry`). Prompt text,
 * tool arguments and model text are included only with `logPrompts`; credentials never are.
 */
export interface Telemetry {
  userPrompt(event: { promptId: string; prompt: string }): void;
  apiResponse(event: {
    model: string;
    promptId: string | undefined;
    durationMs: number;
    usage: { input: number; output: number; cached: number; thoughts: number; tool: number; total: number };
  }): void;
  apiError(event: {
    model: string;
    promptId: string | undefined;
    durationMs: number;
    errorType: string;
  }): void;
  toolCall(event: { call: CompletedToolCall; promptId: string }): void;
  compression(event: { tokensBefore: number; tokensAfter: number; status: string }): void;
  loopDetected(event: { promptId: string; detail: string; action: string }): void;
  hookCall(event: {
    eventName: string;
    hookName: string;
    durationMs: number;
    success: boolean;
    exitCode: number | null;
  }): void;
  /** Flushes and stops the exporters; call once when the session ends. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** `telemetry.outfile`: export logs and metrics as JSON to this file (wins over OTLP). */
  outfile?: string;
  /** `telemetry.otlpEndpoint`, e.g. `http://localhost:4318` (OTLP over HTTP/JSON). */
  otlpEndpoint?: string;
  /** `telemetry.logPrompts`: include prompt text, tool arguments and hook input/output. */
  logPrompts: boolean;
  sessionId: string;
  interactive: boolean;
  /** Metric export interval (default 10 s). */
  metricIntervalMs?: number;
}

/** Telemetry that does nothing: the default, and what a disabled setting gives. */
export const NO_TELEMETRY: Telemetry = {
  userPrompt() {},
  apiResponse() {},
  apiError() {},
  toolCall() {},
  compression() {},
  loopDetected() {},
  hookCall() {},
  shutdown: async () => {},
};

/** Loads the OpenTelemetry-backed implementation on demand. */
export async function createTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  const { createOtelTelemetry } = await loadPart.otel();
  return createOtelTelemetry(options);
}
