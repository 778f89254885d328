import type { AnyValueMap, Logger } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter } from '@opentelemetry/sdk-logs';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { FileLogExporter, FileMetricExporter } from './file-exporters';
import type { Telemetry, TelemetryOptions } from './telemetry';

/** Names of log events and metrics (kodo's prefix, Gemini CLI's suffixes). */
const PREFIX = 'kodo';
const SERVICE_NAME = 'kodo';

/**
 * OpenTelemetry logs and metrics for one session, to a local file or an OTLP/HTTP endpoint.
 * Loaded only when telemetry is enabled.
 */
export function createOtelTelemetry(options: TelemetryOptions): Telemetry {
  const resource = resourceFromAttributes({ 'service.name': SERVICE_NAME, 'session.id': options.sessionId });
  const { logExporter, metricExporter } = exporters(options);
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [new BatchLogRecordProcessor({ exporter: logExporter })],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: metricExporter,
        exportIntervalMillis: options.metricIntervalMs ?? 10_000,
      }),
    ],
  });
  const logger = loggerProvider.getLogger(SERVICE_NAME);
  const meter = meterProvider.getMeter(SERVICE_NAME);
  const metrics = {
    toolCalls: meter.createCounter(`${PREFIX}.tool.call.count`),
    toolLatency: meter.createHistogram(`${PREFIX}.tool.call.latency`, { unit: 'ms' }),
    apiRequests: meter.createCounter(`${PREFIX}.api.request.count`),
    apiLatency: meter.createHistogram(`${PREFIX}.api.request.latency`, { unit: 'ms' }),
    tokens: meter.createCounter(`${PREFIX}.token.usage`),
    linesChanged: meter.createCounter(`${PREFIX}.lines.changed`),
    hookCalls: meter.createCounter(`${PREFIX}.hook_call.count`),
    sessions: meter.createCounter(`${PREFIX}.session.count`),
  };
  metrics.sessions.add(1);
  const emit = (name: string, body: string, attributes: AnyValueMap) =>
    logEvent(logger, options, `${PREFIX}.${name}`, body, attributes);

  return {
    userPrompt({ promptId, prompt }) {
      emit('user_prompt', `User prompt. Length: ${prompt.length}.`, {
        prompt_length: prompt.length,
        prompt_id: promptId,
        ...(options.logPrompts ? { prompt } : {}),
      });
    },
    apiResponse({ model, promptId, durationMs, usage }) {
      const duration = Math.round(durationMs);
      emit('api_response', `API response from ${model}. Status: 200. Duration: ${duration}ms.`, {
        model,
        ...(promptId ? { prompt_id: promptId } : {}),
        duration_ms: duration,
        input_token_count: usage.input,
        output_token_count: usage.output,
        cached_content_token_count: usage.cached,
        thoughts_token_count: usage.thoughts,
        tool_token_count: usage.tool,
        total_token_count: usage.total,
        status_code: 200,
      });
      metrics.apiRequests.add(1, { model, status_code: 200 });
      metrics.apiLatency.record(duration, { model });
      for (const [type, count] of Object.entries({
        input: usage.input,
        output: usage.output,
        cache: usage.cached,
        thought: usage.thoughts,
        tool: usage.tool,
      })) {
        if (count > 0) metrics.tokens.add(count, { model, type });
      }
    },
    apiError({ model, promptId, durationMs, errorType }) {
      const duration = Math.round(durationMs);
      emit('api_error', `API error for ${model}. Error: ${errorType}. Duration: ${duration}ms.`, {
        model,
        ...(promptId ? { prompt_id: promptId } : {}),
        duration_ms: duration,
        'error.type': errorType,
      });
      metrics.apiRequests.add(1, { model, status_code: errorType });
    },
    toolCall({ call, promptId }) {
      const success = call.response.status === 'success';
      const name = call.request.name;
      const decision = call.decision ? `. Decision: ${call.decision}` : '';
      emit(
        'tool_call',
        `Tool call: ${name}${decision}. Success: ${success}. Duration: ${call.response.durationMs}ms.`,
        {
          function_name: name,
          ...(options.logPrompts ? { function_args: JSON.stringify(call.request.args, null, 2) } : {}),
          duration_ms: call.response.durationMs,
          success,
          ...(call.decision ? { decision: call.decision } : {}),
          prompt_id: promptId,
          tool_type: name.startsWith('mcp_') ? 'mcp' : 'native',
          ...(call.response.error
            ? { error_type: call.response.error.type, 'error.type': call.response.error.type }
            : {}),
          ...(call.diffStat ? { metadata: JSON.stringify(call.diffStat) } : {}),
        },
      );
      metrics.toolCalls.add(1, { function_name: name, success });
      metrics.toolLatency.record(call.response.durationMs, { function_name: name });
      if (call.diffStat && success) {
        metrics.linesChanged.add(call.diffStat.linesAdded, { type: 'added' });
        metrics.linesChanged.add(call.diffStat.linesRemoved, { type: 'removed' });
      }
    },
    compression({ tokensBefore, tokensAfter, status }) {
      emit('chat_compression', `Chat compression (Saved ${tokensBefore - tokensAfter} tokens)`, {
        tokens_before: tokensBefore,
        tokens_after: tokensAfter,
        status,
      });
    },
    loopDetected({ promptId, detail, action }) {
      emit('loop_detected', `Loop detected (${action}).`, {
        prompt_id: promptId,
        action,
        ...(options.logPrompts ? { detail } : {}),
      });
    },
    hookCall({ eventName, hookName, durationMs, success, exitCode }) {
      const duration = Math.round(durationMs);
      emit(
        'hook_call',
        `Hook call ${eventName}.${hookName} ${success ? 'succeeded' : 'failed'} in ${duration}ms`,
        {
          hook_event_name: eventName,
          hook_type: 'command',
          // Hook commands may embed paths or tokens: names only with logPrompts.
          hook_name: options.logPrompts ? hookName : sanitizeHookName(hookName),
          duration_ms: duration,
          success,
          ...(exitCode !== null ? { exit_code: exitCode } : {}),
        },
      );
      metrics.hookCalls.add(1, { hook_event_name: eventName, success });
    },
    async shutdown() {
      await Promise.allSettled([loggerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

function logEvent(
  logger: Logger,
  options: TelemetryOptions,
  name: string,
  body: string,
  attributes: AnyValueMap,
): void {
  logger.emit({
    body,
    attributes: {
      'session.id': options.sessionId,
      interactive: options.interactive,
      'event.name': name,
      'event.timestamp': new Date().toISOString(),
      ...attributes,
    },
  });
}

function exporters(options: TelemetryOptions): {
  logExporter: LogRecordExporter;
  metricExporter: PushMetricExporter;
} {
  if (options.outfile) {
    return {
      logExporter: new FileLogExporter(options.outfile),
      metricExporter: new FileMetricExporter(options.outfile),
    };
  }
  const base = (options.otlpEndpoint ?? 'http://localhost:4318').replace(/\/+$/, '');
  return {
    logExporter: new OTLPLogExporter({ url: `${base}/v1/logs` }),
    metricExporter: new OTLPMetricExporter({ url: `${base}/v1/metrics` }),
  };
}

/** The first word of a hook's command (the program), without paths or arguments. */
function sanitizeHookName(name: string): string {
  const first = name.trim().split(/\s+/)[0] ?? '';
  return first.split('/').at(-1) ?? first;
}
