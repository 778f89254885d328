/**
 * One ACP prompt turn: runs the prompt through the Session and streams what happens as
 * `session/update`s, in order, before the turn's answer. How the turn ended becomes its stop
 * reason; a model failure becomes a JSON-RPC error (never an HTTP status as the code).
 */
import * as acp from '@agentclientprotocol/sdk';
import type { LoopOutcome, Part } from '@kodo/core/engine';
import { EventUpdates, type UpdateTarget } from './event-updates';

export async function runPromptTurn(
  target: UpdateTarget,
  input: string | Part[],
  signal: AbortSignal,
): Promise<acp.PromptResponse> {
  const updates = new EventUpdates(target);
  const send = (update: acp.SessionUpdate) => updates.sendUpdate(update);
  try {
    // A plain-text prompt comes as a string, so the session log keeps it as typed (for replays).
    const stream = target.session.sendMessage(input, signal);
    let next = await stream.next();
    while (!next.done) {
      await updates.send(next.value);
      next = await stream.next();
    }
    const outcome = next.value;
    const notice = outcomeNotice(outcome);
    if (notice) await send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: notice } });
    await sendUsage(target, send);
    return { stopReason: stopReasonOf(outcome) };
  } finally {
    updates.close();
  }
}

async function sendUsage(
  target: UpdateTarget,
  send: (update: acp.SessionUpdate) => Promise<void>,
): Promise<void> {
  const share = target.session.contextUsage();
  if (share === undefined) return;
  const size = target.session.contextWindow(target.session.model);
  const usage = target.session.budgetUsage();
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
