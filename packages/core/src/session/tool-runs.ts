import { attachDiscoveredContext } from '../context/jit-context';
import type { ProjectMemory } from '../context/memory-files';
import type { AgentEvent, ToolCallRequestInfo } from '../contracts/events';
import type { CompletedToolCall, Scheduler } from '../scheduler/scheduler';
import type { Telemetry } from '../telemetry/telemetry';
import type { Workspace } from '../tools/workspace';
import { AsyncQueue } from '../utils/async-queue';
import type { DeferredTools } from './deferred-tools';
import type { SessionStats } from './stats';

/** How the scheduler runs a batch (whether the person asked for it, as a typed `!command`). */
export type ToolRunOptions = Parameters<Scheduler['schedule']>[3];

/** What running a batch of tool calls touches besides the scheduler. */
export interface ToolRunDeps {
  scheduler: Scheduler;
  stats: SessionStats;
  telemetry: Telemetry;
  deferred: DeferredTools | undefined;
  memory: ProjectMemory | undefined;
  workspace: Workspace;
}

/**
 * Runs a batch of tool calls (the model's, or one the person typed) through the scheduler,
 * streaming its events; then counts them (stats, telemetry) and lets the context files of the
 * folders the calls touched join their results (context/jit-context.ts).
 */
export async function* runSessionTools(
  deps: ToolRunDeps,
  calls: readonly ToolCallRequestInfo[],
  signal: AbortSignal,
  options: ToolRunOptions = {},
): AsyncGenerator<AgentEvent, CompletedToolCall[]> {
  deps.deferred?.noteCalled(calls.map((call) => call.name));
  const queue = new AsyncQueue<AgentEvent>();
  const done = deps.scheduler
    .schedule([...calls], signal, (event) => queue.push(event), options)
    .finally(() => queue.close());
  for await (const event of queue) yield event;
  const completed = await done;
  for (const call of completed) {
    deps.stats.recordToolCall(call);
    deps.telemetry.toolCall({ call, promptId: call.request.promptId });
  }
  if (deps.memory) await attachDiscoveredContext(completed, deps.memory, deps.workspace);
  return completed;
}
