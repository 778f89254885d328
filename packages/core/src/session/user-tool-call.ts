import type { AgentEvent, ToolCallRequestInfo } from '../contracts/events';
import type { CompletedToolCall } from '../scheduler/scheduler';

/**
 * A tool call made outside a model turn: the UI's `!command` (and the commands that run a tool
 * for the person, like `/memory add`), a step of a custom command file, or an MCP client of
 * `kodo mcp serve`. It goes through the
 * same scheduler run as a turn's calls, under a prompt id of its own; nothing here touches the
 * history or the record (the front end decides what the model should learn of it).
 */

/**
 * Who asked for the call. Only `user`, the person typing it, lets a policy's "ask" allow it.
 * `command` is a step (`!{…}`, `` !`…` ``, `@{…}`) of a custom command file — of the project, the
 * user's folder or an extension: text someone wrote earlier, not what the person typed now —
 * and `client` an MCP client; both get every check a model's call gets, approval included.
 */
export type ToolCallRequester = 'user' | 'command' | 'client';

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
  const typedByPerson = call.requestedBy === 'user';
  const request = {
    callId: `${name}_${Date.now()}_${call.requestedBy}`,
    name,
    args,
    promptId: deps.nextPromptId(),
  };
  yield { type: 'tool_call_request', call: request };
  const [completed] = yield* deps.runTools([request], signal, typedByPerson ? { requestedByUser: true } : {});
  return completed!;
}
