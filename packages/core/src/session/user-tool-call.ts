import type { AgentEvent, ToolCallRequestInfo } from '../contracts/events';
import type { CompletedToolCall } from '../scheduler/scheduler';

/**
 * A tool call made outside a model turn: the UI's `!command` (and the commands that run a tool
 * for the person, like `/memory add`), or an MCP client of `kodo mcp serve`. It goes through the
 * same scheduler run as a turn's calls, under a prompt id of its own; nothing here touches the
 * history or the record (the front end decides what the model should learn of it).
 */

/** Who asked for the call: the person (a policy's "ask" allows it), or a program (it is asked). */
export type ToolCallRequester = 'user' | 'client';

export interface UserToolCallDeps {
  /** The id of a new prompt: the call counts as one of its own. */
  nextPromptId: () => string;
  /** The session's scheduler run (stats, telemetry and discovered context included). */
  runTools: (
    calls: readonly ToolCallRequestInfo[],
    signal: AbortSignal,
    options: { requestedByUser?: boolean },
  ) => AsyncGenerator<AgentEvent, CompletedToolCall[]>;
}

/** Streams the call's events (its request first, as in a turn) and returns how it ended. */
export async function* runUserToolCall(
  deps: UserToolCallDeps,
  call: { name: string; args: Record<string, unknown>; requestedBy: ToolCallRequester },
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, CompletedToolCall> {
  const { name, args } = call;
  const byClient = call.requestedBy === 'client';
  const request = {
    callId: `${name}_${Date.now()}_${byClient ? 'client' : 'user'}`,
    name,
    args,
    promptId: deps.nextPromptId(),
  };
  yield { type: 'tool_call_request', call: request };
  const [completed] = yield* deps.runTools([request], signal, byClient ? {} : { requestedByUser: true });
  return completed!;
}
