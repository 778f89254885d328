import type { AgentEvent, LoopOutcome, SessionStats } from '@kodo/core/engine';
import { stripTerminalControls } from '@kodo/core/engine';
import { ExitCode, type FatalError } from '../exit-codes';
import type { StreamEvent } from './events-schema';
import { costSummary } from './json';
import {
  exitCodeFor,
  type HeadlessOutput,
  type OutputStreams,
  overflowMessage,
  structuredMismatchMessage,
} from './output';
import { STREAM_EVENTS_VERSION } from './stream-events-version';

type Fields<T extends StreamEvent['type']> = Omit<Extract<StreamEvent, { type: T }>, 'type' | 'timestamp'>;

/**
 * `-o stream-json`: one JSON object per line, each with `type` and an ISO `timestamp`. The
 * format is versioned (`init.version`) and described by docs/events.schema.json.
 */
export function createStreamJsonOutput(streams: OutputStreams): HeadlessOutput {
  let sessionId = '';
  /** Set while a subagent's event is written: which call of the parent runs it, and which agent. */
  let nesting: { parent_tool_id: string; agent: string } | undefined;
  const emit = <T extends StreamEvent['type']>(type: T, fields: Fields<T>) => {
    const line = { type, timestamp: new Date().toISOString(), ...fields, ...nesting };
    streams.stdout.write(`${JSON.stringify(line)}\n`);
  };
  let toolCalls = 0;
  let budgetMessage: string | undefined;

  function write(event: AgentEvent): void {
    switch (event.type) {
      case 'subagent_event': {
        // The child's events, each marked with the parent's call (Gemini CLI emits none of them).
        const outer = nesting;
        nesting = { parent_tool_id: event.parentCallId, agent: event.agent };
        write(event.event);
        nesting = outer;
        break;
      }
      case 'content':
        emit('message', { role: 'assistant', content: stripTerminalControls(event.text), delta: true });
        break;
      case 'steering':
        // A line sent while the turn ran went in at this step boundary (stream-input.ts).
        emit('message', { role: 'user', content: event.text, steering: true });
        break;
      case 'thought': {
        if (event.text === '') break;
        const content = stripTerminalControls(event.text);
        const subject = /^\s*\*\*(.+?)\*\*/.exec(content)?.[1];
        emit('thought', { content, ...(subject ? { subject } : {}), delta: true });
        break;
      }
      case 'tool_call_request':
        emit('tool_use', {
          tool_name: event.call.name,
          tool_id: event.call.callId,
          parameters: event.call.args,
        });
        break;
      case 'tool_call_response': {
        if (!nesting) toolCalls += 1;
        const { response } = event;
        emit('tool_result', {
          tool_id: response.callId,
          status: response.status === 'success' ? 'success' : 'error',
          ...(response.status === 'success' ? { output: response.resultDisplay } : {}),
          ...(response.status !== 'success'
            ? {
                error: {
                  type: response.error?.type ?? 'TOOL_EXECUTION_ERROR',
                  message: response.resultDisplay,
                },
              }
            : {}),
        });
        break;
      }
      case 'loop_detected':
        if (event.action === 'stop')
          emit('error', { severity: 'warning', message: 'Loop detected, stopping execution' });
        break;
      case 'max_session_turns':
        emit('error', { severity: 'error', message: 'Maximum session turns exceeded' });
        break;
      case 'budget_exceeded':
        budgetMessage = event.message;
        emit('error', { severity: 'error', message: event.message });
        break;
      case 'agent_execution_blocked':
        emit('error', { severity: 'warning', message: `Agent execution blocked: ${event.reason}` });
        break;
      case 'invalid_stream':
        emit('error', { severity: 'error', message: event.message });
        break;
      case 'context_window_will_overflow':
        emit('error', { severity: 'error', message: overflowMessage(event) });
        break;
      case 'retry':
        emit('error', {
          severity: 'warning',
          message: `${event.reason} Retrying (attempt ${event.attempt}).`,
        });
        break;
    }
  }

  return {
    start(info) {
      sessionId = info.sessionId;
      emit('init', { session_id: info.sessionId, model: info.model, version: STREAM_EVENTS_VERSION });
      if (info.input !== undefined) emit('message', { role: 'user', content: info.input });
    },
    nextPrompt(input) {
      toolCalls = 0;
      budgetMessage = undefined;
      emit('message', { role: 'user', content: input });
    },
    inputError(message) {
      emit('error', { severity: 'error', message });
    },
    sessionChange(change) {
      if (change.type === 'approval_mode_changed')
        emit('approval_mode', { mode: change.to, previous: change.from });
    },
    event(event: AgentEvent) {
      write(event);
    },
    finish({ result, stats, durationMs, usage, structured }) {
      let code = exitCodeFor(result, { httpStatusAsExitCode: true });
      let ok =
        result.kind === 'completed' || result.kind === 'halted_by_hook' || result.kind === 'blocked_by_hook';
      let error = ok ? undefined : resultError(result, budgetMessage);
      if (structured?.kind === 'mismatch') {
        ok = false;
        error = { type: 'StructuredOutputError', message: structuredMismatchMessage(structured.problems) };
        code = ExitCode.structuredOutput;
      }
      emit('result', {
        status: ok ? 'success' : 'error',
        ...(error ? { error } : {}),
        ...(structured?.kind === 'matched' ? { structured_output: structured.value } : {}),
        stats: {
          ...streamStats(stats, durationMs, toolCalls),
          ...(usage ? { cost: costSummary(usage) } : {}),
        },
      });
      return code;
    },
    fatal(fatal: FatalError) {
      emit('result', {
        status: 'error',
        error: { type: fatal.name, message: fatal.message },
        stats: {
          total_tokens: 0,
          input_tokens: 0,
          output_tokens: 0,
          cached: 0,
          input: 0,
          duration_ms: 0,
          tool_calls: 0,
          models: {},
        },
      });
      void sessionId;
      return fatal.exitCode;
    },
  };
}

function streamStats(stats: SessionStats, durationMs: number, toolCalls: number) {
  const snapshot = stats.snapshot();
  const models: Fields<'result'>['stats']['models'] = {};
  let total = 0;
  let prompt = 0;
  let output = 0;
  let cached = 0;
  let input = 0;
  for (const [name, model] of Object.entries(snapshot.models)) {
    const t = model.tokens;
    models[name] = {
      total_tokens: t.total,
      input_tokens: t.prompt,
      output_tokens: t.candidates,
      cached: t.cached,
      input: t.input,
    };
    total += t.total;
    prompt += t.prompt;
    output += t.candidates;
    cached += t.cached;
    input += t.input;
  }
  return {
    total_tokens: total,
    input_tokens: prompt,
    output_tokens: output,
    cached,
    input,
    duration_ms: Math.round(durationMs),
    tool_calls: toolCalls,
    models,
  };
}

/** The `error` of a `result` event for a prompt that did not complete. */
function resultError(
  result: LoopOutcome,
  budgetMessage: string | undefined,
): { type: string; message: string } {
  switch (result.kind) {
    case 'cancelled':
      return { type: 'CancelledError', message: 'Operation cancelled.' };
    case 'turn_limit':
      return { type: 'MaxSessionTurnsError', message: 'Maximum session turns exceeded' };
    case 'budget':
      return { type: 'BudgetExceededError', message: budgetMessage ?? result.exceeded.message };
    case 'error':
      return result.failure.invalidStream
        ? { type: 'INVALID_STREAM', message: result.failure.message }
        : { type: 'ApiError', message: result.failure.message };
    case 'loop_detected':
      return { type: 'LoopDetectedError', message: `Loop detected: ${result.detail}` };
    case 'context_overflow':
      return { type: 'ContextWindowOverflowError', message: overflowMessage(result) };
    default:
      return { type: 'Error', message: result.kind };
  }
}
