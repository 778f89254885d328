/**
 * A session's events as ACP `session/update`s, in order: the model's words and thoughts, each tool
 * call (`tool_call`, then `tool_call_update`s for its progress and its end), a subagent's calls
 * under the call that runs it, the plan after `write_todos`. Used for a model turn (turn.ts) and
 * for the person's own `!command` (shell-line.ts), so an editor shows both alike.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentEvent, Session, TodoItem, ToolRegistry } from '@kodo/core/engine';
import type { CallIds } from './call-ids';
import type { EditorTerminals } from './editor-terminal';
import { toolCallEnd, toolCallStart } from './tool-calls';

/** Live output shown per call (shell output, a subagent's words): its tail. */
const PROGRESS_TAIL_CHARS = 8_000;

export interface UpdateTarget {
  sessionId: string;
  client: acp.AgentContext;
  session: Session;
  tools: ToolRegistry;
  cwd: string;
  /** The session's call ids (subagent calls, terminals); cleared when the updates end. */
  calls: CallIds;
  /** The editor's terminals, when the client offers them. */
  terminals?: EditorTerminals;
}

/** A subagent's event is shown under the call that runs it (see call-ids.ts). */
interface Nesting {
  parentCallId: string;
  agent: string;
}

/**
 * The updates of one run of events (a turn, a `!command`). While it is open, a command that
 * starts in an editor terminal shows that terminal under its call; `close()` forgets the run.
 */
export class EventUpdates {
  private readonly progress = new Map<string, string>();

  constructor(private readonly target: UpdateTarget) {
    const { calls, terminals } = target;
    if (!terminals) return;
    terminals.onCreated = (callId, terminalId) => {
      calls.setTerminal(callId, terminalId);
      // Not announced yet: the terminal goes out with the call's `tool_call`.
      if (calls.isAnnounced(callId)) {
        void this.sendUpdate({
          sessionUpdate: 'tool_call_update',
          toolCallId: calls.idOf(callId),
          content: [{ type: 'terminal', terminalId }],
        }).catch(() => undefined);
      }
    };
  }

  sendUpdate(update: acp.SessionUpdate): Promise<void> {
    return this.target.client.notify('session/update', { sessionId: this.target.sessionId, update });
  }

  /** Sends what `event` shows the client (nothing, for events it does not show). */
  async send(event: AgentEvent): Promise<void> {
    for (const update of this.updatesFor(event)) await this.sendUpdate(update);
  }

  close(): void {
    if (this.target.terminals) this.target.terminals.onCreated = undefined;
    this.target.calls.clear();
  }

  private updatesFor(event: AgentEvent, nesting?: Nesting): acp.SessionUpdate[] {
    const { calls } = this.target;
    switch (event.type) {
      case 'content':
        // A subagent's words are its call's progress, not the session's answer.
        if (nesting) return [this.progressUpdate(calls.idOf(nesting.parentCallId), event.text)];
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } }];
      case 'thought':
        if (nesting) return [];
        return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } }];
      case 'tool_call_request': {
        const start = toolCallStart(event.call, this.target.tools, this.target.cwd);
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
          ? [
              {
                sessionUpdate: 'tool_call_update',
                toolCallId: calls.idOf(event.callId),
                status: 'in_progress',
              },
            ]
          : [];
      case 'tool_progress':
        // The editor's terminal already shows the command's output live.
        if (calls.terminalOf(event.callId)) return [];
        return [this.progressUpdate(calls.idOf(event.callId), event.output)];
      case 'tool_call_response': {
        const { response } = event;
        const id = calls.idOf(response.callId);
        this.progress.delete(id);
        const end = toolCallEnd(response);
        // The terminal stays the call's content (content sent again would replace it).
        const { content, ...withoutContent } = end;
        const shown = calls.terminalOf(response.callId) ? withoutContent : { ...withoutContent, content };
        const updates: acp.SessionUpdate[] = [
          { sessionUpdate: 'tool_call_update', ...shown, toolCallId: id },
        ];
        if (!nesting && response.name === 'write_todos' && response.status === 'success') {
          updates.push({ sessionUpdate: 'plan', entries: planEntries(this.target.session.todos()) });
        }
        return updates;
      }
      case 'subagent_event':
        return this.updatesFor(event.event, { parentCallId: event.parentCallId, agent: event.agent });
      default:
        return [];
    }
  }

  /** A call's live text so far (its tail, so a chatty command cannot grow an update without bound). */
  private progressUpdate(toolCallId: string, text: string): acp.SessionUpdate {
    const output = `${this.progress.get(toolCallId) ?? ''}${text}`.slice(-PROGRESS_TAIL_CHARS);
    this.progress.set(toolCallId, output);
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      content: [{ type: 'content', content: { type: 'text', text: output } }],
    };
  }
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
