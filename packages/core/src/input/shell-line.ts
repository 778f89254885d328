/**
 * `!command`: the person runs a shell command outside a model turn; its output joins the
 * conversation as context for the next prompt (nothing is sent to the model now). The terminal
 * runs it as typed at kodo's own prompt (`requestedBy: 'user'`: a policy's deny, hooks and the
 * sandbox still apply); a line that arrives over ACP, headless or `kodo mcp serve` may come from
 * a script or a file, so there it gets every check a model's call gets, approval included (ACP
 * asks the editor, `mcp serve` the client through elicitation; headless refuses unless a policy or
 * `tools.allowed` allows it).
 */
import type { AgentEvent } from '../contracts/events';
import type { Part } from '../contracts/messages';
import type { ToolCallRequester } from '../session/user-tool-call';
import { shellCommandNote } from './shell-note';
import type { FrontEnd, InputSession } from './types';

export interface ShellLineResult {
  status: 'success' | 'error' | 'cancelled';
  /** Whether the command ran (a refused one did not: its output is then the reason). */
  ran: boolean;
  /** What the command printed (or why it did not run). */
  output: string;
}

export function shellRequester(frontEnd: FrontEnd): ToolCallRequester {
  return frontEnd === 'terminal' ? 'user' : 'command';
}

export async function runShellLine(
  session: Pick<InputSession, 'runUserToolCall'> & { addContext(parts: Part[]): void },
  command: string,
  options: { frontEnd: FrontEnd; signal: AbortSignal; onEvent?: (event: AgentEvent) => void },
): Promise<ShellLineResult> {
  const stream = session.runUserToolCall('run_shell_command', { command }, options.signal, {
    requestedBy: shellRequester(options.frontEnd),
  });
  let next = await stream.next();
  while (!next.done) {
    options.onEvent?.(next.value);
    next = await stream.next();
  }
  const { response } = next.value;
  if (response.status === 'cancelled') return { status: 'cancelled', ran: false, output: '' };
  const output = response.resultDisplay;
  // A refused command ran nothing: there is no output for the model to learn of.
  if (response.status !== 'success' && !ranOutput(next.value)) {
    return { status: 'error', ran: false, output: response.error?.message ?? output };
  }
  session.addContext([{ text: shellCommandNote(command, output) }]);
  return { status: response.status === 'success' ? 'success' : 'error', ran: true, output };
}

function ranOutput(completed: { response: { responseParts: Part[] } }): boolean {
  const response = completed.response.responseParts[0]?.functionResponse?.response as
    | { output?: unknown }
    | undefined;
  return typeof response?.output === 'string';
}
