/**
 * One prompt of a `kodo mcp serve` task (the `kodo` and `kodo-reply` tools). It means what it
 * means in every front end (core's input pipeline): `@file` attaches the file, `/<custom>`,
 * `/<skill>` and MCP prompts expand, `@agent` routes to the subagent, and `!command` runs the
 * command with every check a model's call gets — approved through elicitation when the client
 * can answer, refused otherwise — its output then the answer, with no model request.
 */
import {
  type AgentEvent,
  type LoopOutcome,
  resolveInput,
  runShellLine,
  type ShellLineResult,
} from '@kodo/core/engine';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServeSession } from './mcp-serve';

export interface ServeTask {
  cli: ServeSession;
  running: boolean;
}

export interface TaskHooks {
  /** Each event of the task (progress notifications). */
  onEvent: (event: AgentEvent) => void;
  /** A note for the server's log (stderr): references that were not attached. */
  warn: (message: string) => void;
}

export async function runTask(
  task: ServeTask,
  prompt: string,
  signal: AbortSignal,
  hooks: TaskHooks,
): Promise<CallToolResult> {
  task.running = true;
  try {
    const { session, runtime } = task.cli;
    const resolved = await resolveInput(
      { text: prompt },
      {
        frontEnd: 'mcp_serve',
        session,
        sources: runtime.inputSources(),
        signal,
        onEvent: hooks.onEvent,
      },
    );
    switch (resolved.kind) {
      case 'error':
        return taskError(resolved.message);
      case 'session_command':
        // No built-in session command runs here (the pipeline says where each one does).
        return taskError(`/${resolved.name} does not run in kodo mcp serve.`);
      case 'shell': {
        const ran = await runShellLine(session, resolved.command, {
          frontEnd: 'mcp_serve',
          signal,
          onEvent: hooks.onEvent,
        });
        return shellAnswer(task, resolved.command, ran);
      }
      case 'prompt': {
        for (const skipped of resolved.skipped) hooks.warn(`Not attached: ${skipped}`);
        const stream = session.sendMessage(resolved.prompt, signal);
        let next = await stream.next();
        while (!next.done) {
          hooks.onEvent(next.value);
          next = await stream.next();
        }
        await runtime.generator.flush();
        return modelAnswer(task, next.value);
      }
    }
  } finally {
    task.running = false;
  }
}

function modelAnswer(task: ServeTask, outcome: LoopOutcome): CallToolResult {
  const failure = outcome.kind === 'error' ? outcome.failure.message : undefined;
  const content = failure ?? outcome.text;
  const structured = { sessionId: task.cli.session.id, content, outcome: outcome.kind };
  return {
    content: [{ type: 'text', text: content }],
    structuredContent: structured,
    ...(failure ? { isError: true } : {}),
  };
}

/**
 * The command's output is the answer, as `kodo -p '!command'` prints it (a failing command's too:
 * its output says how it ended); a command that did not run is an error with the reason.
 */
function shellAnswer(task: ServeTask, command: string, result: ShellLineResult): CallToolResult {
  if (result.status === 'error' && !result.ran) {
    return taskError(`Shell command '${command}' was not run: ${result.output}`);
  }
  const content = result.output;
  const outcome = result.status === 'cancelled' ? 'cancelled' : 'completed';
  return {
    content: [{ type: 'text', text: content }],
    structuredContent: { sessionId: task.cli.session.id, content, outcome },
  };
}

export function taskError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
