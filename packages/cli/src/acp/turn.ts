/**
 * One ACP prompt turn: runs the prompt through the Session and streams what happens as
 * `session/update`s, in order, before the turn's answer. How the turn ended becomes its stop
 * reason; a model failure becomes a JSON-RPC error (never an HTTP status as the code).
 */
import * as acp from '@agentclientprotocol/sdk';
import type { AgentEvent, LoopOutcome, Part, Session, TodoItem, ToolRegistry } from '@kodo/core/engine';
import type { CallIds } from './call-ids';
import type { EditorTerminals } from './editor-terminal';
import { toolCallEnd, toolCallStart } from './tool-calls';

/** Live output shown per call (shell output, a subagent's words): its tail. */
const PROGRESS_TAIL_CHARS = 8_000;

export interface TurnTarget {
  sessionId: string;
  client: acp.AgentContext;
  session: Session;
  tools: ToolRegistry;
  cwd: string;
  /** The session's call ids (subagent calls, terminals); cleared when the turn ends. */
  calls: CallIds;
  /** The editor's terminals, when the client offers them. */
  terminals?: EditorTerminals;
}

export async function runPromptTurn(
  target: TurnTarget,
  input: string | Part[],
  signal: AbortSignal,
): Promise<acp.PromptResponse> {
  const send = (update: acp.SessionUpdate) =>
    target.client.notify('session/update', { sessionId: target.sessionId, update });
  const progress = new Map<string, string>();
  const { calls, terminals } = target;
  if (terminals) {
    terminals.onCreated = (callId, terminalId) => {
      calls.setTerminal(callId, terminalId);
      // Not announced yet: the terminal goes out with the call's `tool_call`.
      if (calls.isAnnounced(callId)) {
        void send({
          sessionUpdate: 'tool_call_update',
          toolCallId: calls.idOf(callId),
          content: [{ type: 'terminal', terminalId }],
        }).catch(() => undefined);
      }
    };
  }
  try {
    // A plain-text prompt comes as a string, so the session log keeps it as typed (for replays).
    const stream = target.session.sendMessage(input, signal);
    let next = await stream.next();
    while (!next.done) {
      for (const update of updatesFor(next.value, target, progress)) await send(update);
      next = await stream.next();
    }
    const outcome = next.value;
    const notice = outcomeNotice(outcome);
    if (notice) await send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: notice } });
    await sendUsage(target, send);
    return { stopReason: stopReasonOf(outcome) };
  } finally {
    if (terminals) terminals.onCreated = undefined;
    calls.clear();
  }
}

/** A subagent's event is shown under the call that runs it (see call-ids.ts). */
interface Nesting {
  parentCallId: string;
  agent: string;
}

function updatesFor(
  event: AgentEvent,
  target: TurnTarget,
  progress: Map<string, string>,
  nesting?: Nesting,
): acp.SessionUpdate[] {
  const { calls } = target;
  switch (event.type) {
    case 'content':
      // A subagent's words are its call's progress, not the session's answer.
      if (nesting) return [progressUpdate(calls.idOf(nesting.parentCallId), event.text, progress)];
      return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } }];
    case 'thought':
      if (nesting) return [];
      return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } }];
    case 'tool_call_request': {
      const start = toolCallStart(event.call, target.tools, target.cwd);
      const terminalId = calls.terminalOf(event.call.callId);
      calls.announce(event.call.callId);
      const nested = nesting
        ? {
            toolCallId: calls.nest(nesting.parentCallId, event.call.callId),
            _meta: { kodo: { parentToolCallId: calls.idOf(nesting.parentCallId), agent: nesting.agent } },
          }
        : {};
      return [
        {
          sessionUpdate: 'tool_call',
          ...start,
          ...nested,
          ...(terminalId ? { content: [{ type: 'terminal', terminalId }] } : {}),
        },
      ];
    }
    case 'tool_call_status':
      return event.status === 'executing'
        ? [{ sessionUpdate: 'tool_call_update', toolCallId: calls.idOf(event.callId), status: 'in_progress' }]
        : [];
    case 'tool_progress':
      // The editor's terminal already shows the command's output live.
      if (calls.terminalOf(event.callId)) return [];
      return [progressUpdate(calls.idOf(event.callId), event.output, progress)];
    case 'tool_call_response': {
      const { response } = event;
      const id = calls.idOf(response.callId);
      progress.delete(id);
      const end = toolCallEnd(response);
      // The terminal stays the call's content (content sent again would replace it).
      const { content, ...withoutContent } = end;
      const shown = calls.terminalOf(response.callId) ? withoutContent : { ...withoutContent, content };
      const updates: acp.SessionUpdate[] = [{ sessionUpdate: 'tool_call_update', ...shown, toolCallId: id }];
      if (!nesting && response.name === 'write_todos' && response.status === 'success') {
        updates.push({ sessionUpdate: 'plan', entries: planEntries(target.session.todos()) });
      }
      return updates;
    }
    case 'subagent_event':
      return updatesFor(event.event, target, progress, {
        parentCallId: event.parentCallId,
        agent: event.agent,
      });
    default:
      return [];
  }
}

/** A call's live text so far (its tail, so a chatty command cannot grow an update without bound). */
function progressUpdate(toolCallId: string, text: string, progress: Map<string, string>): acp.SessionUpdate {
  const output = `${progress.get(toolCallId) ?? ''}${text}`.slice(-PROGRESS_TAIL_CHARS);
  progress.set(toolCallId, output);
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    content: [{ type: 'content', content: { type: 'text', text: output } }],
  };
}

/** The todo list as an ACP plan; cancelled items are dropped, blocked ones wait. */
export function planEntries(todos: readonly TodoItem[]): acp.PlanEntry[] {
  return todos
    .filter((todo) => todo.status !== 'cancelled')
    .map((todo) => ({
      content: todo.description,
      priority: 'medium',
      status: todo.status === 'blocked' || todo.status === 'cancelled' ? 'pending' : todo.status,
    }));
}

async function sendUsage(
  target: TurnTarget,
  send: (update: acp.SessionUpdate) => Promise<void>,
): Promise<void> {
  const share = target.session.contextUsage();
  if (share === undefined) return;
  const size = target.session.contextWindow(target.session.model);
  const usage = target.session.budget.usage();
  await send({
    sessionUpdate: 'usage_update',
    used: Math.round(share * size),
    size,
    ...(usage.unpricedModels.length === 0 && usage.costUsd > 0
      ? { cost: { amount: usage.costUsd, currency: 'USD' } }
      : {}),
  });
}

export function stopReasonOf(outcome: LoopOutcome): acp.StopReason {
  switch (outcome.kind) {
    case 'completed':
    case 'halted_by_hook':
    case 'blocked_by_hook':
    case 'loop_detected':
      return 'end_turn';
    case 'cancelled':
      return 'cancelled';
    case 'turn_limit':
      return 'max_turn_requests';
    case 'context_overflow':
      return 'max_tokens';
    case 'budget':
      return outcome.exceeded.budget === 'tokens' ? 'max_tokens' : 'end_turn';
    case 'error':
      // The model failed: the turn is an error, with the provider's status as data.
      throw acp.RequestError.internalError(
        { ...(outcome.failure.status !== undefined ? { httpStatus: outcome.failure.status } : {}) },
        outcome.failure.message,
      );
  }
}

/** Why a turn stopped early, for the person reading the chat. */
function outcomeNotice(outcome: LoopOutcome): string | undefined {
  switch (outcome.kind) {
    case 'halted_by_hook':
      return `\n\n[Stopped by a hook: ${outcome.reason}]`;
    case 'blocked_by_hook':
      return `\n\n[Blocked by a hook: ${outcome.reason}]`;
    case 'loop_detected':
      return `\n\n[Stopped: the model was repeating itself (${outcome.detail})]`;
    case 'budget':
      return `\n\n[${outcome.exceeded.message}]`;
    case 'turn_limit':
      return `\n\n[Stopped after ${outcome.limit} model turns]`;
    default:
      return undefined;
  }
}
