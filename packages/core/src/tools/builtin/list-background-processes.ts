import * as z from 'zod';
import { defineTool } from '../define-tool';
import type { BackgroundJob } from '../shell/background-jobs';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['shell'] as const;

const NONE = 'No background processes found.';

/** Lists the commands this session started with `run_shell_command` and `is_background`. */
export const listBackgroundProcessesTool = defineTool({
  name: 'list_background_processes',
  uses: USES,
  displayName: 'List Background Processes',
  kind: 'read',
  description:
    'Lists the background commands started in this session (run_shell_command with is_background): ' +
    'their PID, whether they are still running, and how they ended.',
  parameters: z.object({}),
  describe: () => 'Background processes of this session',
  async execute(_params, ctx) {
    const jobs = ctx.shell?.jobs.list() ?? [];
    const text = jobs.length === 0 ? NONE : jobs.map(formatJob).join('\n');
    return { llmContent: text, returnDisplay: text };
  },
});

/** `- [PID 123] EXITED: \`npm run build\` (Exit Code: 1)` */
export function formatJob(job: BackgroundJob): string {
  const exit = job.exitCode !== undefined ? ` (Exit Code: ${job.exitCode})` : '';
  const signal = job.signal ? ` (Signal: ${job.signal})` : '';
  const stopped = job.stoppedForOutput ? ' (stopped by kodo: its output passed the log size limit)' : '';
  return `- [PID ${job.pid}] ${job.status.toUpperCase()}: \`${job.command}\`${exit}${signal}${stopped}`;
}
