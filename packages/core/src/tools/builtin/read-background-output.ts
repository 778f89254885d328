import { lstat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { errnoCode } from '../results';
import { LOG_TAIL_BYTES, readLogTail } from '../shell/read-log';
import type { ToolResult } from '../tool';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['shell'] as const;

/** Lines shown when the model does not say how many. */
export const DEFAULT_BACKGROUND_LINES = 100;

const parameters = z.object({
  pid: z.number().int().describe('The PID of a background command started in this session.'),
  lines: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to show from the end of its output (default ${DEFAULT_BACKGROUND_LINES}).`),
  delay_ms: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Milliseconds to wait before reading, to give the command time to print something.'),
});

/**
 * The end of a background command's log: at most the last 64 KiB, complete lines only.
 * Only this session's jobs can be read, and a log path that is a symlink is refused.
 */
export const readBackgroundOutputTool = defineTool({
  name: 'read_background_output',
  uses: USES,
  displayName: 'Read Background Output',
  kind: 'read',
  description:
    'Shows the latest output of a background command started in this session with run_shell_command ' +
    `(is_background): the last 'lines' lines (default ${DEFAULT_BACKGROUND_LINES}) of at most the last ` +
    `${LOG_TAIL_BYTES / 1024} KiB of its log.`,
  parameters,
  describe: (params) => `Output of background process ${params.pid}`,
  async execute(params, ctx, options): Promise<ToolResult> {
    const { pid } = params;
    if (params.delay_ms) {
      try {
        await sleep(params.delay_ms, undefined, { signal: options.signal });
      } catch {
        const text = 'Reading the background output was cancelled.';
        return { llmContent: text, returnDisplay: text };
      }
    }
    const job = ctx.shell?.jobs.get(pid);
    if (!job) {
      return failed(
        `Background process history lookup failed for PID ${pid}`,
        `No background process with PID ${pid} was started in this session.`,
      );
    }
    try {
      // lstat, not access: a dangling symlink is still a symlink, and is refused below.
      await lstat(job.logPath);
    } catch {
      return failed(`Log file not found at ${job.logPath}`, `No log found for PID ${pid}.`);
    }
    let tail: Awaited<ReturnType<typeof readLogTail>>;
    try {
      tail = await readLogTail(job.logPath);
    } catch (error) {
      if (errnoCode(error) === 'ELOOP') {
        return failed(
          `The log of PID ${pid} is a symbolic link; refusing to read it: ${job.logPath}`,
          `Symlinked log refused for PID ${pid}.`,
        );
      }
      return failed(`Could not read the log of PID ${pid}: ${errorMessage(error)}`, 'Failed to read log.');
    }
    if (tail.empty) return { llmContent: 'Log is empty.', returnDisplay: 'Log is empty.' };
    const wanted = params.lines ?? DEFAULT_BACKGROUND_LINES;
    const shown = tail.lines.slice(-wanted);
    const header =
      wanted < tail.lines.length
        ? `Showing last ${wanted} of ${tail.lines.length} lines:\n`
        : 'Full Log Output:\n';
    const text = header + shown.join('\n');
    return { llmContent: text, returnDisplay: text };
  },
});

function failed(message: string, display: string): ToolResult {
  return { llmContent: message, returnDisplay: display, error: { type: 'execution_failed', message } };
}
