/**
 * `session/prompt`: what the prompt means is decided by core's input pipeline, as in every front
 * end; this file hands each meaning to what answers it here — a built-in session command, a
 * `!command`, or a model turn — and tells the client the session's activity afterwards.
 */
import * as acp from '@agentclientprotocol/sdk';
import { resolveInput, runShellLine } from '@kodo/core/engine';
import { runtimeInputSources } from '../shared/input-sources';
import { runSessionCommand } from './commands';
import type { OpenSession } from './open-session';
import { promptLine } from './prompt-content';
import { announceActivity } from './session-info';
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
    sources: runtimeInputSources(runtime),
    signal,
  });
  if (resolved.kind === 'error') throw acp.RequestError.invalidParams(undefined, resolved.message);
  if (resolved.kind === 'session_command') {
    await say(await runSessionCommand(resolved, { session, runtime }, signal));
    return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
  }
  if (resolved.kind === 'shell') {
    const result = await runShellLine(session, resolved.command, { frontEnd: 'acp', signal });
    await say(
      result.ran ? result.output : `Shell command '${resolved.command}' was not run: ${result.output}`,
    );
    return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
  }
  for (const skipped of resolved.skipped) await say(`Not attached: ${skipped}\n`);
  try {
    return await runPromptTurn(
      {
        sessionId: params.sessionId,
        client,
        session,
        tools: runtime.tools,
        cwd: open.cwd,
        calls: open.calls,
        ...(open.terminals ? { terminals: open.terminals } : {}),
      },
      resolved.prompt,
      signal,
    );
  } finally {
    await announceActivity(open, line.text, send);
  }
}
