import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TemplateServices } from '../commands/expand';
import type { AgentEvent } from '../contracts/events';
import type { Part } from '../contracts/messages';
import { loadExtensionsModule } from '../on-demand';
import type { CompletedToolCall } from '../scheduler/scheduler';
import type { InputSession } from './types';

const MAX_DIRECTORY_FILES = 50;

/**
 * What a custom command's template may do, as tool calls of the command: `!{…}` runs
 * `run_shell_command` and `@{…}` runs `read_file`, each through the session's scheduler, so the
 * policy, approval, hooks, workspace and ignore rules apply exactly as for the model's calls.
 * They are the command file's text, not typed by the person (`requestedBy: 'command'`): in the
 * UI they ask as the model's calls do, headless a call that needs approval is refused.
 */
export function commandTemplateServices(
  session: InputSession,
  options: { onEvent: (event: AgentEvent) => void; commandName: string },
): TemplateServices {
  const call = async (
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CompletedToolCall> => {
    const stream = session.runUserToolCall(name, args, signal, { requestedBy: 'command' });
    let next = await stream.next();
    while (!next.done) {
      options.onEvent(next.value);
      next = await stream.next();
    }
    return next.value;
  };
  const refused = async (what: string, completed: CompletedToolCall) => {
    const { CommandExpansionError } = await loadExtensionsModule();
    const reason = completed.response.error?.message ?? completed.response.resultDisplay;
    return new CommandExpansionError(`${what} was not run: ${reason}`);
  };
  return {
    async runShell(command, signal) {
      const completed = await call('run_shell_command', { command }, signal);
      // The person said no: the command stops there, nothing is sent.
      if (completed.decision === 'reject') throw await refused(`Shell command '${command}'`, completed);
      if (completed.response.status === 'cancelled') return { output: '', aborted: true };
      const text = responseOutput(completed);
      if (completed.response.status !== 'success' && text === undefined) {
        throw await refused(`Shell command '${command}'`, completed);
      }
      const display = completed.response.resultDisplay;
      const exit = /\nExit Code: (\d+)/.exec(text ?? '');
      const signalName = /\nSignal: (\S+)/.exec(text ?? '');
      return {
        output: display === '(no output)' ? '' : display,
        ...(exit ? { exitCode: Number(exit[1]) } : {}),
        ...(signalName ? { signal: signalName[1]! } : {}),
      };
    },
    async readPath(path, signal) {
      const files = directoryFiles(session, path) ?? [path];
      const parts: Part[] = [];
      for (const file of files) {
        const completed = await call('read_file', { file_path: file }, signal);
        if (completed.response.status !== 'success') throw await refused(`Reading @{${file}}`, completed);
        const [first, ...media] = completed.response.responseParts;
        const output = (first?.functionResponse?.response as { output?: unknown } | undefined)?.output;
        if (files.length > 1) parts.push({ text: `\n--- ${file} ---\n` });
        if (media.length > 0) parts.push(...media);
        else if (typeof output === 'string') parts.push({ text: output });
      }
      return parts;
    },
  };
}

function responseOutput(completed: CompletedToolCall): string | undefined {
  const response = completed.response.responseParts[0]?.functionResponse?.response as
    | { output?: unknown }
    | undefined;
  return typeof response?.output === 'string' ? response.output : undefined;
}

/** A directory's files (recursively, without `.git` and `node_modules`), or undefined for a file. */
function directoryFiles(session: InputSession, path: string): string[] | undefined {
  const workspace = session.workspace;
  const absolute = workspace.absolute(path);
  let isDirectory = false;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    return undefined;
  }
  if (!isDirectory || !workspace.contains(absolute)) return undefined;
  return readdirSync(absolute, { recursive: true, encoding: 'utf8' })
    .filter((entry) => !entry.split(/[\\/]/).some((part) => part === '.git' || part === 'node_modules'))
    .map((entry) => join(absolute, entry))
    .filter((file) => {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    })
    .sort()
    .slice(0, MAX_DIRECTORY_FILES);
}
