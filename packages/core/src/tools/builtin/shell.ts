import { statSync } from 'node:fs';
import * as z from 'zod';
import { defineTool } from '../define-tool';
import { failureFrom } from '../results';
import { type RunCommandResult, runCommand } from '../shell/run-command';
import type { ExecuteOptions, ToolContext, ToolError, ToolResult } from '../tool';

/** Output kept for the model; older output is dropped (a head+tail spill file comes later). */
export const MAX_SHELL_OUTPUT_CHARS = 1024 * 1024;

const parameters = z.object({
  command: z.string().describe('The exact bash command to run (executed as `bash -c <command>`).'),
  description: z
    .string()
    .optional()
    .describe('A short description of what the command does, shown to the user.'),
  dir_path: z
    .string()
    .optional()
    .describe('Directory to run the command in, inside the workspace. Default: the working directory.'),
});

type Params = z.infer<typeof parameters>;

export const shellTool = defineTool({
  name: 'run_shell_command',
  displayName: 'Shell',
  kind: 'execute',
  description:
    'Runs a bash command and returns its combined stdout and stderr, the exit code if it is not zero, ' +
    'and the signal if it was killed. The command gets no input (stdin is closed), so avoid interactive ' +
    'programs. It runs in its own process group and is stopped if it prints nothing for a long time.',
  parameters,
  validate: validateShell,
  describe(params, ctx) {
    const where = params.dir_path
      ? ` [in ${ctx.workspace.display(ctx.workspace.absolute(params.dir_path))}]`
      : '';
    const why = params.description ? ` (${params.description.replace(/\n/g, ' ')})` : '';
    return `${params.command}${where}${why}`;
  },
  locations: (params, ctx) => (params.dir_path ? [ctx.workspace.absolute(params.dir_path)] : []),
  async confirmationDetails(params) {
    return {
      kind: 'exec',
      title: 'Confirm Shell Command',
      command: params.command,
      rootCommands: rootCommands(params.command),
    };
  },
  execute: (params, ctx, options) => shellExecute(params, ctx, options),
});

function validateShell(params: Params, ctx: ToolContext): ToolError | undefined {
  if (params.command.trim() === '')
    return { type: 'invalid_tool_params', message: 'Command cannot be empty.' };
  if (params.dir_path === undefined) return undefined;
  const resolved = ctx.workspace.resolvePath(params.dir_path);
  if (!resolved.ok) return resolved.error;
  try {
    if (!statSync(resolved.path).isDirectory()) {
      return { type: 'invalid_tool_params', message: `Path is not a directory: ${resolved.path}` };
    }
  } catch {
    return { type: 'invalid_tool_params', message: `Directory does not exist: ${resolved.path}` };
  }
  return undefined;
}

async function shellExecute(params: Params, ctx: ToolContext, options: ExecuteOptions): Promise<ToolResult> {
  if (options.signal.aborted) {
    const text = 'Command was cancelled by user before it could start.';
    return { llmContent: text, returnDisplay: text };
  }
  let cwd = ctx.workspace.cwd;
  if (params.dir_path !== undefined) {
    const resolved = ctx.workspace.resolvePath(params.dir_path);
    if (!resolved.ok) return failureFrom(resolved.error);
    cwd = resolved.path;
  }
  const result = await runCommand({
    command: params.command,
    cwd,
    env: shellEnv(ctx.env),
    signal: options.signal,
    inactivityTimeoutMs: ctx.shellInactivityTimeoutMs,
    maxOutputChars: MAX_SHELL_OUTPUT_CHARS,
    ...(options.onOutput ? { onOutput: options.onOutput } : {}),
  });
  return formatResult(result, ctx.shellInactivityTimeoutMs);
}

export function shellEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // GEMINI_CLI too: scripts written for Gemini CLI detect the agent by it.
  return { ...base, KODO_CLI: '1', GEMINI_CLI: '1', TERM: 'xterm-256color', PAGER: 'cat', GIT_PAGER: 'cat' };
}

function formatResult(result: RunCommandResult, timeoutMs: number): ToolResult {
  const output = outputText(result);
  if (result.endedBy !== 'exit') {
    const head =
      result.endedBy === 'timeout'
        ? `Command was automatically cancelled because it exceeded the timeout of ${(timeoutMs / 60_000).toFixed(1)} minutes without output.`
        : 'Command was cancelled by user before it could complete.';
    const tail =
      output.trim() === ''
        ? ' There was no output before it was cancelled.'
        : ` Below is the output before it was cancelled:\n${output}`;
    return { llmContent: head + tail, returnDisplay: head + tail };
  }
  const lines = [`Output: ${output.trim() === '' ? '(empty)' : output}`];
  if (result.error) lines.push(`Error: ${result.error.message}`);
  if (result.exitCode !== null && result.exitCode !== 0) lines.push(`Exit Code: ${result.exitCode}`);
  if (result.signal) lines.push(`Signal: ${result.signal}`);
  if (result.backgroundPids.length > 0) lines.push(`Background PIDs: ${result.backgroundPids.join(', ')}`);
  if (result.pid !== undefined) lines.push(`Process Group PGID: ${result.pid}`);
  const llmContent = `<untrusted_context>\n${lines.join('\n')}\n</untrusted_context>`;
  const display = output.trim() === '' ? '(no output)' : output;
  if (result.error) {
    // A non-zero exit is a normal result; only a failure to run at all is an error.
    return {
      llmContent,
      returnDisplay: display,
      error: { type: 'shell_execute_error', message: result.error.message },
    };
  }
  return { llmContent, returnDisplay: display };
}

/** Output for the model: escape sequences removed, trailing newlines trimmed, cuts announced. */
function outputText(result: RunCommandResult): string {
  const text = stripAnsi(result.output).trimEnd();
  if (result.omittedChars === 0) return text;
  return `[... ${result.omittedChars} earlier characters of output were dropped; showing the last ${result.output.length} ...]\n${text}`;
}

/** CSI, OSC and two-character escape sequences (colours, cursor moves, titles). */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g, '');
}

/**
 * The program each simple command starts with, for the approval prompt and "always allow"
 * rules: `a && b | c; d` gives a, b, c, d. Leading `VAR=value` assignments are skipped. A naive
 * split (quotes are not parsed); the policy engine does the careful parsing.
 */
export function rootCommands(command: string): string[] {
  const roots = new Set<string>();
  // `&` alone separates background jobs, but not in redirections such as `2>&1` or `&>file`.
  for (const segment of command.split(/&&|\|\||\|&?|;|\n|(?<![<>&])&(?![&>])/)) {
    const words = segment.trim().split(/\s+/);
    const first = words.find((word) => word !== '' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
    const name = first?.replace(/^[({!]+/, '');
    if (name) roots.add(name);
  }
  return [...roots];
}
