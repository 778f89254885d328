/**
 * The ACP tool call ids of one session's calls. A subagent's calls (run by an `invoke_agent`
 * call) are tool calls of their own, with the ids `<parent id>/<child call id>` and
 * `_meta.kodo.parentToolCallId` naming the parent: ACP v1 has no nesting, and ids made this way
 * stay unique even when two subagents number their calls alike. Also remembers which calls run in
 * an editor terminal, so the call shows that terminal until it ends.
 */
export class CallIds {
  private readonly nested = new Map<string, string>();
  private readonly announced = new Set<string>();
  private readonly terminals = new Map<string, string>();

  /** The ACP id of a kodo call id (itself for the session's own calls). */
  idOf(callId: string): string {
    return this.nested.get(callId) ?? callId;
  }

  /** Registers a subagent's call under the call that runs the subagent; returns its ACP id. */
  nest(parentCallId: string, childCallId: string): string {
    const id = `${this.idOf(parentCallId)}/${childCallId}`;
    this.nested.set(childCallId, id);
    return id;
  }

  /** The call's `tool_call` has gone out: later news about it can be sent as updates. */
  announce(callId: string): void {
    this.announced.add(callId);
  }

  isAnnounced(callId: string): boolean {
    return this.announced.has(callId);
  }

  setTerminal(callId: string, terminalId: string): void {
    this.terminals.set(callId, terminalId);
  }

  terminalOf(callId: string): string | undefined {
    return this.terminals.get(callId);
  }

  /** After a turn: nothing of it is needed any more (a long session must not grow). */
  clear(): void {
    this.nested.clear();
    this.announced.clear();
    this.terminals.clear();
  }
}
