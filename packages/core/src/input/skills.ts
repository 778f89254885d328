/**
 * `/<skill>`: the skill is activated as the model's own `activate_skill` call would activate it
 * (the same approval; the skill folder becomes readable), and what that call returns — the
 * `<activated_skill>` element with the SKILL.md body and its resources — goes first in the
 * prompt, the typed request after it, so the model has the instructions whichever way the skill
 * was started.
 */
import type { AgentEvent } from '../contracts/events';
import type { Part } from '../contracts/messages';
import type { InputSession } from './types';

export async function activateSkill(
  session: Pick<InputSession, 'runUserToolCall'>,
  name: string,
  signal: AbortSignal,
  onEvent?: (event: AgentEvent) => void,
): Promise<{ ok: true; instructions: string } | { ok: false; message: string }> {
  const stream = session.runUserToolCall('activate_skill', { name }, signal);
  let next = await stream.next();
  while (!next.done) {
    onEvent?.(next.value);
    next = await stream.next();
  }
  const response = next.value.response;
  if (response.status !== 'success')
    return {
      ok: false,
      message: `Skill ${name} was not activated: ${response.error?.message ?? response.resultDisplay}`,
    };
  const output = response.responseParts[0]?.functionResponse?.response?.output;
  return { ok: true, instructions: typeof output === 'string' ? output : response.resultDisplay };
}

/** What `/<skill> args` sends: the activation (instructions and resources), then the request. */
export function skillActivationParts(name: string, activation: string, args: string): Part[] {
  return [
    { text: activation },
    { text: args !== '' ? args : `Follow the instructions of the skill "${name}" above.` },
  ];
}
