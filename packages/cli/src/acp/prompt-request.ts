/**
 * `session/prompt`: what the prompt means is decided by core's input pipeline, as in every front
 * end; this file hands each meaning to what answers it here — a built-in session command, a
 * `!command` (shown as a tool call), or a model turn — and tells the client the session's activity afterwards.
 */
import * as acp from '@agentclientprotocol/sdk';
import { resolveInput } from '@kodo/core/engine';
import { runSessionCommand } from './commands';
import type { UpdateTarget } from './event-updates';
import type { OpenSession } from './open-session';
import { promptLine } from './prompt-content';
import { announceActivity } from './session-info';
import { runShellLineAsToolCall } from './shell-line';
import { runPromptTurn } from './turn';

export async function answerPrompt(
  params: acp.PromptRequest,
  open: OpenSession,
  client: acp.AgentContext,
  signal: AbortSignal,
): Promise<acp.PromptResponse> {
  const { session, runtime } = open;
  const line = promptLine(params.prompt);
  const send = (update: acp.SessionUpdate) =>
    client.notify('session/update', { sessionId: params.sessionId, update });
  const say = (text: string) =>
    send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  const resolved = await resolveInput(line, {
    frontEnd: 'acp',
    session,
    sources: runtime.inputSources(),
    signal,
  });
  if (resolved.kind === 'error') throw acp.RequestError.invalidParams(undefined, resolved.message);
  if (resolved.kind === 'session_command') {
    await say(await runSessionCommand(resolved, { session, runtime }, signal));
    return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
  }
  const target: UpdateTarget = {
    sessionId: params.sessionId,
    client,
    session,
    tools: runtime.tools,
    cwd: open.cwd,
    calls: open.calls,
    ...(open.terminals ? { terminals: open.terminals } : {}),
  };
  if (resolved.kind === 'shell') return runShellLineAsToolCall(target, resolved.command, signal);
  for (const skipped of resolved.skipped) await say(`Not attached: ${skipped}\n`);
  try {
    return await runPromptTurn(target, resolved.prompt, signal);
  } finally {
    await announceActivity(open, line.text, send);
  }
}
