import type { Content } from '../contracts/messages';
import type { ApprovalMode } from '../scheduler/policy/policy';
import type { TodoItem } from '../tools/tool';
import type { TurnRecorder } from './recorder';
import type { SessionOptions } from './session-types';
import type { SessionStatsSnapshot } from './stats';

/** Where the parent is when it forks: what the new session starts from. */
export interface ForkPoint {
  model: string;
  approvalMode: ApprovalMode;
  history: Content[];
  stats: SessionStatsSnapshot;
  todos: TodoItem[];
}

/**
 * The options of a session forked from another: the parent's options and its state now, under a
 * new id (one is made unless given) and with its own record, if given; never the parent's.
 */
export function forkOptions(
  parent: SessionOptions,
  at: ForkPoint,
  options: { sessionId?: string; recorder?: TurnRecorder },
): SessionOptions {
  const { recorder: _parentRecorder, sessionId: _parentId, ...rest } = parent;
  return {
    ...rest,
    ...options,
    model: at.model,
    approvalMode: at.approvalMode,
    history: at.history,
    restored: { stats: at.stats, todos: at.todos },
  };
}
