/**
 * `!command` over ACP. Core runs it as the line's own call, with every check a model's call gets
 * (the editor is asked to approve it), and adds its output to the next prompt's context; the
 * editor sees it as it sees a model's run_shell_command: a `tool_call` of kind execute titled with
 * the command, in progress, then completed or failed with the output (or in the editor's
 * terminal, when it offers terminals). Nothing else is said: the tool call is the answer.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { type AgentEvent, runShellLine } from '@kodo/core/engine';
import { EventUpdates, type UpdateTarget } from './event-updates';

export async function runShellLineAsToolCall(
  target: UpdateTarget,
  command: string,
  signal: AbortSignal,
): Promise<acp.PromptResponse> {
  const updates = new EventUpdates(target);
  // Core reports the call's events as they happen, without waiting: they go out in order.
  let sent = Promise.resolve();
  const onEvent = (event: AgentEvent) => {
    sent = sent.then(() => updates.send(event)).catch(() => undefined);
  };
  try {
    await runShellLine(target.session, command, { frontEnd: 'acp', signal, onEvent });
    await sent;
    return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
  } finally {
    updates.close();
  }
}
