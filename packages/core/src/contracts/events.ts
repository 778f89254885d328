/**
 * AgentEvent: what every front end (headless text/json/stream-json, the Ink UI, the SDK) consumes.
 * A discriminated union on `type`. Once a stream has started, failures arrive as events, never as
 * throws. The model-side kinds come from AgentClient/Turn; the tool-side kinds from the Session
 * driving the Scheduler.
 */
import type { InvalidStreamType } from './errors';
import type { Citation, FinishReason, Part, UsageMetadata } from './messages';
import type { ConfirmationDetails, FileDiff, ToolErrorType } from './tool-results';

export interface ToolCallRequestInfo {
  /** The id the model gave, or one kodo generated (`<name>_<epochMs>_<n>`). */
  callId: string;
  name: string;
  args: Record<string, unknown>;
  promptId: string;
  /** The provider's own id, if it sent one; echoed back in the function response. */
  providerId?: string;
}

export type ToolCallStatus =
  | 'validating'
  | 'awaiting_approval'
  | 'scheduled'
  | 'executing'
  | 'success'
  | 'error'
  | 'cancelled';

export interface ToolCallResponseInfo {
  callId: string;
  name: string;
  status: 'success' | 'error' | 'cancelled';
  /** The functionResponse part(s) sent back to the model. */
  responseParts: Part[];
  /** What the person sees (may differ from what the model reads). */
  resultDisplay: string;
  error?: { type: ToolErrorType; message: string };
  durationMs: number;
  /** An edit's text before and after (see ToolResult.fileDiff). */
  fileDiff?: FileDiff;
}

export type CompressionStatus =
  | 'compressed'
  /** The summary made the history bigger; nothing changed. */
  | 'failed_inflated'
  | 'failed_empty_summary'
  /** Only old tool outputs were shortened (no summary call). */
  | 'content_truncated'
  /** Nothing to compress. */
  | 'noop';

export type AgentEvent =
  | { type: 'content'; text: string }
  | { type: 'thought'; text: string }
  | { type: 'citation'; citations: Citation[] }
  | { type: 'tool_call_request'; call: ToolCallRequestInfo }
  | { type: 'tool_call_status'; callId: string; name: string; status: ToolCallStatus }
  | { type: 'tool_call_confirmation'; call: ToolCallRequestInfo; details: ConfirmationDetails }
  | { type: 'tool_progress'; callId: string; output: string }
  | { type: 'tool_call_response'; response: ToolCallResponseInfo }
  | { type: 'finished'; reason: FinishReason | undefined; usage?: UsageMetadata }
  /** The model in use; `reason` is set when kodo switched to a fallback model mid-session. */
  | { type: 'model_info'; model: string; reason?: string }
  /** A stream is being retried: front ends drop the partial output of the attempt. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  | { type: 'error'; message: string; status?: number; exitCode?: number }
  | { type: 'invalid_stream'; invalidType: InvalidStreamType; message: string }
  | { type: 'user_cancelled' }
  | { type: 'max_session_turns'; limit: number }
  /** `nudge`: the model is asked to rethink and the prompt goes on; `stop`: the prompt ends. */
  | { type: 'loop_detected'; detail: string; action: 'nudge' | 'stop' }
  | { type: 'chat_compressed'; status: CompressionStatus; originalTokens: number; newTokens: number }
  | { type: 'context_window_will_overflow'; estimatedTokens: number; remainingTokens: number }
  | { type: 'agent_execution_stopped'; reason: string }
  /** A session budget ran out; the session stopped between steps (`message` says which and how far). */
  | {
      type: 'budget_exceeded';
      budget: 'cost' | 'tokens' | 'tool_calls' | 'time';
      limit: number;
      used: number;
      message: string;
    }
  | { type: 'agent_execution_blocked'; reason: string }
  /** A line the person sent while the model worked joined the next request (after the tool results). */
  | { type: 'steering'; text: string }
  /** An event of the subagent that tool call `parentCallId` runs (`invoke_agent`). */
  | { type: 'subagent_event'; parentCallId: string; agent: string; event: AgentEvent };

export type AgentEventType = AgentEvent['type'];
