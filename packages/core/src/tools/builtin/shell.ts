import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import { sanitizeEnv } from '../../utils/env';
import { stripEscapeSequences } from '../../utils/terminal-text';
import { defineTool } from '../define-tool';
import { DEFAULT_OUTPUT_THRESHOLD_CHARS, group } from '../output-limit';
import { failure, failureFrom } from '../results';
import type { BackgroundJob, CommandLimits } from '../shell/background-jobs';
import { MAX_SAVED_OUTPUT_CHARS, OutputCollector } from '../shell/output-collector';
import { terminateGroup } from '../shell/process-group';
import { readLogTail } from '../shell/read-log';
import {
  DEFAULT_MAX_DURATION_MS,
  DEFAULT_MAX_OUTPUT_CHARS,
  type Launch,
  type RunCommandResult,
  runCommand,
} from '../shell/run-command';
import { startBackground } from '../shell/start-background';
import { runInTerminal } from '../shell/terminal';
import type { ExecuteOptions, ToolContext, ToolError, ToolResult } from '../tool';

/**
 * What the model may read from one command when `tools.truncateToolOutputThreshold` is 0 or less
 * (no cap). Memory must stay bounded whatever the setting, so the shell still cuts there.
 */
export const MAX_SHELL_OUTPUT_CHARS = 1024 * 1024;

const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
  maxSavedChars: MAX_SAVED_OUTPUT_CHARS,
  maxDurationMs: DEFAULT_MAX_DURATION_MS,
};
/** How long a background command runs before the call returns with its first output. */
export const DEFAULT_BACKGROUND_DELAY_MS = 200;

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
  is_background: z
    .boolean()
    .optional()
    .describe(
      'Run the command in the background (servers, watchers, long builds) and return at once with its PID ' +
        'and first output; read more later with read_background_output. Background commands are stopped ' +
        'when the session ends.',
    ),
  delay_ms: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      `With is_background: milliseconds to let the command run before returning its first output (default ${DEFAULT_BACKGROUND_DELAY_MS}).`,
    ),
});

type Params = z.infer<typeof parameters>;

export const shellTool = defineTool({
  name: 'run_shell_command',
  displayName: 'Shell',
  kind: 'execute',
  description:
    'Runs a bash command and returns its combined stdout and stderr, the exit code if it is not zero, ' +
    'and the signal if it was killed. The command gets no input (stdin is closed), so avoid interactive ' +
    'programs. It runs in its own process group and is stopped if it prints nothing for a long time. ' +
    'Very long output is cut to its beginning and end, and the full text is saved to a file whose path ' +
    'is given. Use is_background for commands that do not finish on their own, such as servers.',
  parameters,
  validate: validateShell,
  describe(params, ctx) {
    const where = params.dir_path
      ? ` [in ${ctx.workspace.display(ctx.workspace.absolute(params.dir_path))}]`
      : '';
    const background = params.is_background ? ' [background]' : '';
    const why = params.description ? ` (${oneLine(params.description)})` : '';
    return `${params.command}${where}${background}${why}`;
  },
  locations: (params, ctx) => (params.dir_path ? [ctx.workspace.absolute(params.dir_path)] : []),
  async confirmationDetails(params) {
    return {
      kind: 'exec',
      title: params.description
        ? `Confirm Shell Command: ${oneLine(params.description)}`
        : 'Confirm Shell Command',
      command: params.command,
      rootCommands: rootCommands(params.command),
    };
  },
  execute: (params, ctx, options) => shellExecute(params, ctx, options),
});

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

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
  const prepared = await sandboxed(ctx, { command: params.command, cwd, env: shellEnv(ctx.env) });
  if (!prepared.ok) return failure('shell_execute_error', prepared.message);
  const { env, launch } = prepared;
  // The editor's terminal when it offers one, for commands that would run unconfined anyway: a
  // sandbox is never given up for the display (its confinement cannot be handed to another
  // process), and background jobs stay in kodo's job table.
  if (ctx.terminals && !prepared.confined && !params.is_background) {
    launch.release?.();
    return terminalExecute(params, ctx, { cwd, signal: options.signal, callId: options.callId });
  }
  if (params.is_background)
    return backgroundExecute(params, ctx, { cwd, env, launch, signal: options.signal });

  const limit = outputLimit(ctx);
  const bounds = ctx.shell?.commandLimits ?? DEFAULT_COMMAND_LIMITS;
  const collector = new OutputCollector({
    limitChars: limit.chars,
    spillPath: () => (limit.spillDir ? spillFile(limit.spillDir) : undefined),
    maxSavedChars: bounds.maxSavedChars,
  });
  const run = {
    maxOutputChars: bounds.maxOutputChars,
    maxDurationMs: bounds.maxDurationMs,
    cwd,
    env,
    signal: options.signal,
    inactivityTimeoutMs: ctx.shellInactivityTimeoutMs,
    sink: collector,
    launch,
  };
  // In a terminal when the front end has one (the person can watch and type); else pipes.
  let result: RunCommandResult;
  try {
    result =
      (await ctx.pseudoTerminal?.run({ ...run, callId: options.callId })) ??
      (await runCommand({
        ...run,
        command: params.command,
        ...(options.onOutput ? { onOutput: options.onOutput } : {}),
      }));
  } finally {
    // The command and everything it started have ended (bwrap's PID namespace takes them down).
    launch.release?.();
  }
  return formatResult(result, collector, {
    limitChars: limit.chars,
    timeoutMs: ctx.shellInactivityTimeoutMs,
    bounds,
  });
}

/** A foreground command in the outside terminal, reported to the model as a local one would be. */
async function terminalExecute(
  params: Params,
  ctx: ToolContext,
  run: { cwd: string; signal: AbortSignal; callId: string | undefined },
): Promise<ToolResult> {
  const limit = outputLimit(ctx);
  const bounds = ctx.shell?.commandLimits ?? DEFAULT_COMMAND_LIMITS;
  const markers = shellEnv({});
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(markers)) if (value !== undefined) env[name] = value;
  const ran = await runInTerminal(
    ctx.terminals!,
    {
      callId: run.callId,
      file: 'bash',
      args: ['-c', params.command],
      cwd: run.cwd,
      env,
      // Bytes, while the cap is in characters: room for multi-byte text without keeping it all.
      outputByteLimit: Math.min(MAX_SHELL_OUTPUT_CHARS, limit.chars * 4),
    },
    {
      signal: run.signal,
      inactivityTimeoutMs: ctx.shellInactivityTimeoutMs,
      maxDurationMs: bounds.maxDurationMs,
    },
  );
  const collector = new OutputCollector({
    limitChars: limit.chars,
    spillPath: () => (limit.spillDir ? spillFile(limit.spillDir) : undefined),
    maxSavedChars: bounds.maxSavedChars,
  });
  if (ran.truncated) collector.append('[the start of the output was dropped by the terminal]\n');
  collector.append(stripEscapeSequences(ran.output));
  const result: RunCommandResult = {
    exitCode: ran.exitCode,
    signal: (ran.signal as NodeJS.Signals | null) ?? null,
    endedBy: ran.endedBy,
    outputChars: ran.output.length,
    backgroundPids: [],
    ...(ran.error ? { error: ran.error } : {}),
  };
  return formatResult(result, collector, {
    limitChars: limit.chars,
    timeoutMs: ctx.shellInactivityTimeoutMs,
    bounds,
  });
}

/**
 * `bash -c <command>`, wrapped in the session's sandbox when there is one. A sandbox that was asked
 * for but cannot start is an error the model reads (and the person sees), never a silent fallback.
 */
async function sandboxed(
  ctx: ToolContext,
  run: { command: string; cwd: string; env: NodeJS.ProcessEnv },
): Promise<
  { ok: true; env: NodeJS.ProcessEnv; launch: Launch; confined: boolean } | { ok: false; message: string }
> {
  const launch: Launch = { file: 'bash', args: ['-c', run.command] };
  const sandbox = ctx.shell?.sandbox;
  if (!sandbox) return { ok: true, env: run.env, launch, confined: false };
  const prepared = await sandbox.prepare({ ...launch, cwd: run.cwd, env: run.env });
  if (!prepared.ok) return { ok: false, message: `Command not run: ${prepared.message}` };
  return {
    ok: true,
    confined: prepared.sandboxed,
    env: prepared.env,
    launch: {
      file: prepared.file,
      args: prepared.args,
      ...(prepared.fds ? { fds: prepared.fds } : {}),
      ...(prepared.release ? { release: prepared.release } : {}),
    },
  };
}

/**
 * The environment of every command: the context's (already free of credentials; sanitized again
 * here so no caller can hand a key to a command the model wrote) plus the agent markers.
 */
export function shellEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // GEMINI_CLI too: scripts written for Gemini CLI detect the agent by it.
  return {
    ...sanitizeEnv(base),
    KODO_CLI: '1',
    GEMINI_CLI: '1',
    TERM: 'xterm-256color',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
  };
}

/** The session's cap (the scheduler's), or the default; "no cap" still gets a memory bound. */
function outputLimit(ctx: ToolContext): { chars: number; spillDir: string | undefined } {
  const limit = ctx.shell?.outputLimit ?? {
    thresholdChars: DEFAULT_OUTPUT_THRESHOLD_CHARS,
    spillDir: ctx.workspace.tempDir,
  };
  return {
    chars: limit.thresholdChars > 0 ? limit.thresholdChars : MAX_SHELL_OUTPUT_CHARS,
    spillDir: limit.spillDir,
  };
}

/** `<temp>/tool-outputs/run_shell_command_<epoch ms>_<random>.txt` (named like a call id). */
function spillFile(spillDir: string): string {
  const suffix = Math.floor(Math.random() * 0x100000000).toString(36);
  return join(spillDir, 'tool-outputs', `run_shell_command_${Date.now()}_${suffix}.txt`);
}

/** Why a command that did not exit on its own was stopped, in the words the model reads. */
function stoppedBecause(
  result: RunCommandResult,
  options: { timeoutMs: number; bounds: CommandLimits },
): string {
  switch (result.endedBy) {
    case 'timeout':
      return `Command was automatically cancelled because it exceeded the timeout of ${(options.timeoutMs / 60_000).toFixed(1)} minutes without output.`;
    case 'output_limit':
      return `Command was stopped because its output passed the limit of ${group(options.bounds.maxOutputChars)} characters for one command. Redirect large output to a file inside the workspace, or limit it (e.g. with head).`;
    case 'time_limit':
      return `Command was stopped because it ran longer than the limit of ${(options.bounds.maxDurationMs / 60_000).toFixed(0)} minutes for one command. Run long tasks with is_background.`;
    default:
      return 'Command was cancelled by user before it could complete.';
  }
}

async function formatResult(
  result: RunCommandResult,
  collector: OutputCollector,
  options: { limitChars: number; timeoutMs: number; bounds: CommandLimits },
): Promise<ToolResult> {
  if (result.endedBy !== 'exit') {
    const head = stoppedBecause(result, options);
    const prefix = `${head} Below is the output before it was cancelled:\n`;
    const output = await collector.render(options.limitChars - prefix.length);
    const text =
      output.trim() === '' ? `${head} There was no output before it was cancelled.` : prefix + output;
    return { llmContent: text, returnDisplay: text };
  }
  const trailer: string[] = [];
  if (result.error) trailer.push(`Error: ${result.error.message}`);
  if (result.exitCode !== null && result.exitCode !== 0) trailer.push(`Exit Code: ${result.exitCode}`);
  if (result.signal) trailer.push(`Signal: ${result.signal}`);
  if (result.backgroundPids.length > 0) trailer.push(`Background PIDs: ${result.backgroundPids.join(', ')}`);
  if (result.pid !== undefined) trailer.push(`Process Group PGID: ${result.pid}`);
  const wrap = (output: string) =>
    `<untrusted_context>\n${[`Output: ${output}`, ...trailer].join('\n')}\n</untrusted_context>`;
  // The result as a whole must fit the cap, or the scheduler would cut it a second time.
  const output = await collector.render(options.limitChars - wrap('').length);
  const empty = output.trim() === '';
  const llmContent = wrap(empty ? '(empty)' : output);
  const display = empty ? '(no output)' : output;
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

async function backgroundExecute(
  params: Params,
  ctx: ToolContext,
  run: { cwd: string; env: NodeJS.ProcessEnv; launch: Launch; signal: AbortSignal },
): Promise<ToolResult> {
  const jobs = ctx.shell?.jobs;
  if (!jobs) {
    return failure('shell_execute_error', 'Background commands are not available in this session.');
  }
  const started = await startBackground({
    jobs,
    command: params.command,
    cwd: run.cwd,
    env: run.env,
    launch: run.launch,
  });
  if (!started.ok) return failure('shell_execute_error', started.message);
  const { pid, logPath } = started.job;
  try {
    await sleep(params.delay_ms ?? DEFAULT_BACKGROUND_DELAY_MS, undefined, { signal: run.signal });
  } catch {
    // Cancelled while waiting: the person did not want this command after all.
    await terminateGroup(pid);
    const text = 'Command was cancelled by user before it could complete.';
    return { llmContent: text, returnDisplay: text };
  }
  const header = `Command is running in background. PID: ${pid}. Initial output:\n`;
  const ended = endedNote(jobs.get(pid));
  const budget = outputLimit(ctx).chars - header.length - ended.length;
  const text = header + (await initialOutput(logPath, budget)) + ended;
  return { llmContent: text, returnDisplay: text };
}

/** A job that finished within the delay: say so, or the model would think it still runs. */
function endedNote(job: BackgroundJob | undefined): string {
  if (!job || job.status === 'running') return '';
  const how = job.signal ? `Signal: ${job.signal}` : `Exit Code: ${job.exitCode}`;
  return `\n(The command has already ended. ${how})`;
}

/** What the job has printed so far: the end of its log, within `budget` characters. */
async function initialOutput(logPath: string, budget: number): Promise<string> {
  let lines: string[];
  let truncated: boolean;
  try {
    ({ lines, truncated } = await readLogTail(logPath));
  } catch {
    return '(empty)';
  }
  let text = lines.join('\n').trimEnd();
  if (text === '') return '(empty)';
  const note = `[earlier output omitted; full log: ${logPath}]\n`;
  if (truncated || text.length > budget) {
    text = note + text.slice(Math.max(0, text.length - Math.max(0, budget - note.length)));
  }
  return text;
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
