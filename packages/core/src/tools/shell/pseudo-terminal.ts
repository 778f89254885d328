import type { Launch } from './launch';
import type { OutputSink, RunCommandResult } from './run-command';

/**
 * A pseudo-terminal for foreground shell commands, provided by an interactive front end: the
 * command sees a terminal (prompts, REPLs, editors work), the person watches its screen and may
 * type into it. Headless runs have none and keep plain pipes (`run-command.ts`).
 */
export interface PseudoTerminal {
  /**
   * Runs the launch in a terminal with the same contract as `runCommand`: the output, stripped
   * of escape sequences, goes to `sink`; the whole process group is stopped on abort, after
   * `inactivityTimeoutMs` without output or input, or past the limits. Resolves to undefined,
   * having started nothing, when no terminal can be opened here: the caller then uses pipes.
   */
  run(options: PseudoTerminalRun): Promise<RunCommandResult | undefined>;
}

export interface PseudoTerminalRun {
  /** The scheduler's call id: the front end shows this call's screen in its box. */
  callId: string | undefined;
  /** `bash -c <command>`, or the same wrapped in the sandbox (its `fds` included). */
  launch: Launch;
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  inactivityTimeoutMs: number;
  sink: OutputSink;
  maxOutputChars: number;
  maxDurationMs: number;
}
