import type {
  AgentEvent,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
  ToolCallStatus,
} from '../contracts/events';
import {
  appendForModel,
  asOriginalCall,
  hookAddition,
  runAfterToolHooks,
  runBeforeToolHooks,
  type ToolHooks,
} from '../hooks/tool-hooks';
import type { HookTailCall } from '../hooks/types';
import { MAX_ARGS_DEPTH, nestsDeeperThan, TOO_DEEP_ARGS_KEY, TOO_DEEP_ARGS_MESSAGE } from '../llm/args-depth';
import { capToolOutput, type OutputLimit } from '../tools/output-limit';
import type { ToolRegistry } from '../tools/registry';
import {
  type PlanReturnMode,
  READ_ONLY_KINDS,
  type Tool,
  type ToolContext,
  type ToolError,
  type ToolInvocation,
  type ToolResult,
  type ToolSpec,
} from '../tools/tool';
import { monotonicMs } from '../utils/clock';
import {
  type ApprovalQuestion,
  type Approvals,
  askApproval,
  checkApproval,
  type ToolDecision,
} from './approval-step';
import { cancelledResponseParts, errorResponseParts, resultResponseParts } from './function-response';
import { type ApprovalMode, type PolicyChecker, policyToolInfo } from './policy/policy';

export type {
  Approvals,
  ConfirmationOutcome,
  ConfirmationRequest,
  ConfirmationResponse,
  ConfirmHandler,
  ToolDecision,
} from './approval-step';
export { NO_APPROVALS } from './approval-step';

export interface CompletedToolCall {
  request: ToolCallRequestInfo;
  response: ToolCallResponseInfo;
  decision?: ToolDecision;
  diffStat?: { linesAdded: number; linesRemoved: number };
  /** A tool hook stopped the agent (`continue: false`): what to tell the person. */
  hookStopMessage?: string;
}

export interface SchedulerOptions {
  /** Cap on the output the model reads from one call; cut outputs are saved to a file. */
  outputLimit?: OutputLimit;
  registry: ToolRegistry;
  context: ToolContext;
  policy: PolicyChecker;
  getApprovalMode: () => ApprovalMode;
  /** Whether a person answers approval questions (the front end says so). */
  approvals: Approvals;
  /** The subagents these calls are made inside, outermost first; absent for the main agent. */
  agentPath?: readonly string[];
  /** BeforeTool, AfterTool and Notification hooks. */
  hooks?: ToolHooks;
  /**
   * Runs after approval, just before a call executes (checkpoints snapshot the workspace here).
   * Must not throw; a throw is ignored and the call runs anyway.
   */
  beforeExecute?: (
    call: ToolCallRequestInfo,
    invocation: ToolInvocation,
    signal: AbortSignal,
  ) => Promise<void>;
}

interface CallState {
  request: ToolCallRequestInfo;
  emit: (event: AgentEvent) => void;
  status: ToolCallStatus;
  startedAt: number;
  /** Time spent waiting for the person's approval: not the tool's time (`/stats`). */
  approvalWaitMs: number;
  invocation?: ToolInvocation;
  decision?: ToolDecision;
  /** The person edited the arguments before approving. */
  modifiedByUser?: boolean;
  /** The mode chosen in a plan approval, for `exit_plan_mode`. */
  approvedMode?: PlanReturnMode;
  /** A BeforeTool hook rewrote the arguments. */
  modifiedByHook?: boolean;
  hookStopMessage?: string;
  /** The person asked for this call themselves (`!command`): approval is not asked again. */
  requestedByUser?: boolean;
  /** For a call an AfterTool hook asked for in place of another: the model's call, and how deep. */
  tailOf?: ToolCallRequestInfo;
  tailDepth?: number;
  done?: CompletedToolCall;
}

/** Tail calls requested by AfterTool hooks, one after another, for one model call. */
const MAX_TAIL_CALLS = 5;

/**
 * Runs the tool calls of one model turn: validating → awaiting_approval → scheduled → executing →
 * success | error | cancelled. Contiguous read-only calls form a wave and run in parallel; any
 * other call runs alone. Results come back in the order the model asked for them, and every call
 * gets a response, even when the batch is cancelled, so the history stays valid.
 */
export class Scheduler {
  constructor(private readonly options: SchedulerOptions) {}

  /**
   * Runs the calls; `onEvent` receives status changes, confirmations, progress and responses.
   * `requestedByUser`: the person typed these calls (`!command`), so a policy's "ask" allows
   * them; a policy's "deny" and the sandbox still apply.
   */
  async schedule(
    requests: ToolCallRequestInfo[],
    signal: AbortSignal,
    onEvent: (event: AgentEvent) => void,
    options: { requestedByUser?: boolean } = {},
  ): Promise<CompletedToolCall[]> {
    const states = requests.map<CallState>((request) => ({
      request,
      emit: onEvent,
      status: 'validating',
      startedAt: monotonicMs(),
      approvalWaitMs: 0,
      ...(options.requestedByUser ? { requestedByUser: true } : {}),
    }));
    let batchCancelReason: string | undefined;
    for (const wave of this.waves(states)) {
      if (signal.aborted) batchCancelReason ??= 'Operation cancelled';
      if (batchCancelReason) {
        for (const state of wave) this.finishCancelled(state, batchCancelReason, { beforeExecution: true });
        continue;
      }
      // Validation, policy and confirmation for the whole wave, then execution together.
      const verdicts = await Promise.all(wave.map((state) => this.prepare(state, signal)));
      if (verdicts.includes('user_denied')) batchCancelReason = 'User cancelled operation';
      const scheduled = wave.filter((state) => state.status === 'scheduled');
      if (batchCancelReason) {
        for (const state of scheduled)
          this.finishCancelled(state, batchCancelReason, { beforeExecution: true });
        continue;
      }
      await Promise.all(scheduled.map((state) => this.execute(state, signal)));
    }
    return states.map((state) => state.done!);
  }

  /** Groups calls: a run of contiguous parallel-safe calls, or one call alone. */
  private waves(states: CallState[]): CallState[][] {
    const waves: CallState[][] = [];
    let current: CallState[] = [];
    for (const state of states) {
      if (this.isParallelSafe(state.request)) {
        current.push(state);
        continue;
      }
      if (current.length > 0) waves.push(current);
      current = [];
      waves.push([state]);
    }
    if (current.length > 0) waves.push(current);
    return waves;
  }

  private isHidden(spec: ToolSpec): boolean {
    const context = { mode: this.options.getApprovalMode(), interactive: this.options.approvals.interactive };
    return this.options.policy.isToolHidden?.(policyToolInfo(spec), this.withAgentPath(context)) ?? false;
  }

  private withAgentPath<T extends object>(context: T): T & { agentPath?: readonly string[] } {
    return this.options.agentPath ? { ...context, agentPath: this.options.agentPath } : context;
  }

  /** Why a hidden tool cannot run here, and how the person can allow it. */
  private hiddenMessage(spec: ToolSpec): string {
    const mode = this.options.getApprovalMode();
    const { interactive } = this.options.approvals;
    const askingWouldHelp =
      !interactive &&
      !(
        this.options.policy.isToolHidden?.(
          policyToolInfo(spec),
          this.withAgentPath({ mode, interactive: true }),
        ) ?? false
      );
    if (askingWouldHelp) {
      return `Tool "${spec.name}" is not allowed in this mode: it needs approval, and no one can give it without the interactive UI (approval mode ${mode}). To allow it, pass --allowed-tools ${spec.name} (or add it to tools.allowed in settings), add a policy rule that allows it, or use -y/--approval-mode=yolo (in the sandbox).`;
    }
    return `Tool "${spec.name}" is not allowed in this mode: the policy denies every call of it (approval mode ${mode}). To allow it, change the approval mode or the rule that denies it (tools.exclude, tools.core or a policy file).`;
  }

  private isParallelSafe(request: ToolCallRequestInfo): boolean {
    if (request.args.wait_for_previous === true) return false;
    const tool = this.options.registry.get(request.name);
    // Unknown tools fail at once, so they can join any wave.
    // Subagents run side by side, each in its own loop (as in Gemini CLI).
    return tool === undefined || READ_ONLY_KINDS.has(tool.kind) || tool.kind === 'agent';
  }

  private async prepare(state: CallState, signal: AbortSignal): Promise<'ok' | 'user_denied'> {
    const { request } = state;
    const spec = this.options.registry.get(request.name);
    if (spec && this.isHidden(spec)) {
      // The model was never offered this tool (policy denies every call of it). As in Gemini
      // CLI, the model is told it does not exist (with the nearest offered names), so it works
      // with what it has; the person is shown what refused it and how to allow it.
      const offered = (tool: ToolSpec) => !this.isHidden(tool);
      this.finish(
        state,
        'error',
        errorResponseParts(request, this.options.registry.notFoundMessage(request.name, offered)),
        this.hiddenMessage(spec),
        { error: { type: 'tool_not_registered', message: this.hiddenMessage(spec) } },
      );
      return 'ok';
    }
    let tool: Tool | undefined;
    try {
      tool = await this.options.registry.load(request.name);
    } catch (error) {
      this.finishError(state, {
        type: 'unhandled_exception',
        message: `Tool "${request.name}" could not be loaded: ${(error as Error).message}`,
      });
      return 'ok';
    }
    if (!tool) {
      this.finishError(state, {
        type: 'tool_not_registered',
        message: this.options.registry.notFoundMessage(request.name, (tool) => !this.isHidden(tool)),
      });
      return 'ok';
    }
    // Arguments too deep to walk safely (replaced by a provider, or from an embedder's own
    // generator) are refused for this call only; the rest of the turn goes on.
    if (TOO_DEEP_ARGS_KEY in request.args || nestsDeeperThan(request.args, MAX_ARGS_DEPTH)) {
      this.finishError(state, { type: 'invalid_tool_params', message: TOO_DEEP_ARGS_MESSAGE });
      return 'ok';
    }
    const built = tool.build(request.args, this.options.context);
    if (!built.ok) {
      this.finishError(state, built.error);
      return 'ok';
    }
    let invocation = built.invocation;
    let hookAsks = false;
    if (this.options.hooks) {
      // BeforeTool runs before the policy, on the arguments as the model sent them.
      const context = this.options.context;
      const originalRequestName = state.tailOf?.name;
      const outcome = await runBeforeToolHooks(
        this.options.hooks,
        { request, tool, context, ...(originalRequestName ? { originalRequestName } : {}) },
        signal,
      );
      if (outcome.kind === 'error') {
        state.hookStopMessage = outcome.stopMessage;
        this.finishError(state, outcome.error);
        return 'ok';
      }
      if (outcome.invocation) {
        invocation = outcome.invocation;
        state.modifiedByHook = true;
      }
      hookAsks = outcome.ask;
    }
    state.invocation = invocation;
    const need = await checkApproval(this.options, {
      request,
      tool,
      invocation,
      mode: this.options.getApprovalMode(),
      hookAsks,
      requestedByUser: state.requestedByUser === true,
    });
    if (need.kind === 'refused') {
      this.finishError(state, need.error);
      return 'ok';
    }
    if (need.kind === 'ask') return this.awaitApproval(state, need.question, signal);
    state.decision = 'accept';
    this.setStatus(state, 'scheduled');
    return 'ok';
  }

  /** Puts the call to the person (see approval-step.ts) and applies their answer to it. */
  private async awaitApproval(
    state: CallState,
    question: ApprovalQuestion,
    signal: AbortSignal,
  ): Promise<'ok' | 'user_denied'> {
    this.setStatus(state, 'awaiting_approval');
    const { answer, waitMs } = await askApproval(this.options, question, state.emit, signal);
    state.approvalWaitMs += waitMs;
    switch (answer.kind) {
      case 'cancelled':
        this.finishCancelled(state, 'Operation cancelled', { beforeExecution: true });
        return 'ok';
      case 'denied':
        state.decision = 'reject';
        this.finishCancelled(state, answer.reason, { beforeExecution: true });
        return 'user_denied';
      case 'refused':
        this.finishError(state, answer.error);
        return 'ok';
      case 'approved':
        state.invocation = answer.invocation;
        state.decision = answer.decision;
        if (answer.modifiedByUser) state.modifiedByUser = true;
        if (answer.approvedMode) state.approvedMode = answer.approvedMode;
        this.setStatus(state, 'scheduled');
        return 'ok';
    }
  }

  private async execute(state: CallState, signal: AbortSignal): Promise<void> {
    if (this.options.beforeExecute && !signal.aborted) {
      await this.options.beforeExecute(state.request, state.invocation!, signal).catch(() => undefined);
    }
    if (signal.aborted) {
      this.finishCancelled(state, 'Operation cancelled', { beforeExecution: true });
      return;
    }
    this.setStatus(state, 'executing');
    const callId = state.request.callId;
    const result = await state.invocation!.execute({
      signal,
      callId,
      onOutput: (output) => state.emit({ type: 'tool_progress', callId, output }),
      onAgentEvent: ({ agent, event }) =>
        state.emit({ type: 'subagent_event', parentCallId: callId, agent, event }),
      ...(state.approvedMode ? { approvedMode: state.approvedMode } : {}),
    });
    if (signal.aborted) {
      this.finishCancelled(state, 'User cancelled tool execution.', {
        beforeExecution: false,
        partial: result,
      });
      return;
    }
    let hookText = '';
    if (this.options.hooks) {
      const after = await runAfterToolHooks(
        this.options.hooks,
        {
          toolName: state.invocation!.tool.name,
          params: state.invocation!.params,
          result,
          ...(state.tailOf ? { originalRequestName: state.tailOf.name } : {}),
        },
        signal,
      );
      if (after.kind === 'tail') {
        await this.runTailCall(state, after.call, signal);
        return;
      }
      if (after.kind === 'error') {
        state.hookStopMessage = after.stopMessage;
        const parts = errorResponseParts(state.request, after.error.message);
        this.finish(state, 'error', parts, after.display, { error: after.error });
        return;
      }
      hookText = hookAddition({
        modifiedByHook: state.modifiedByHook === true,
        ...(after.additionalContext ? { additionalContext: after.additionalContext } : {}),
      });
    }
    if (result.error) {
      this.finish(
        state,
        'error',
        errorResponseParts(state.request, result.error.message + hookText),
        result.returnDisplay,
        {
          error: result.error,
        },
      );
      return;
    }
    let content = result.llmContent;
    if (state.modifiedByUser) {
      const note = `\n\n[System] The user modified the arguments of this call before approving it; it ran with: ${JSON.stringify(state.invocation!.params)}`;
      content = typeof content === 'string' ? content + note : [...content, { text: note }];
    }
    if (typeof content === 'string' && this.options.outputLimit) {
      content = await capToolOutput(content, {
        limit: this.options.outputLimit,
        callId: state.request.callId,
        promptId: state.request.promptId,
      });
    }
    // After the cap, so hook text is never the part that gets cut.
    content = appendForModel(content, hookText);
    this.finish(state, 'success', resultResponseParts(state.request, content), result.returnDisplay, {
      diffStat: result.diffStat,
      ...(result.fileDiff ? { fileDiff: result.fileDiff } : {}),
    });
  }

  /**
   * An AfterTool hook asked for another call in place of the finished one: it goes through the
   * whole pipeline (hooks, policy, approval) under the same call id, and its response goes back
   * under the tool name the model called.
   */
  private async runTailCall(state: CallState, call: HookTailCall, signal: AbortSignal): Promise<void> {
    const original = state.tailOf ?? state.request;
    const depth = (state.tailDepth ?? 0) + 1;
    if (depth > MAX_TAIL_CALLS) {
      this.finishError(state, {
        type: 'unhandled_exception',
        message: `Hooks requested more than ${MAX_TAIL_CALLS} tail calls in a row for this call.`,
      });
      return;
    }
    const tail: CallState = {
      request: { ...state.request, name: call.name, args: call.args },
      emit: (event) =>
        state.emit(
          event.type === 'tool_call_response'
            ? { ...event, response: asOriginalCall(event.response, original) }
            : event,
        ),
      status: 'validating',
      startedAt: state.startedAt,
      approvalWaitMs: state.approvalWaitMs,
      tailOf: original,
      tailDepth: depth,
    };
    this.setStatus(tail, 'validating');
    await this.prepare(tail, signal);
    if (tail.status === 'scheduled') await this.execute(tail, signal);
    const done = tail.done!;
    state.status = tail.status;
    state.done = { ...done, request: state.request, response: asOriginalCall(done.response, original) };
  }

  private finishError(state: CallState, error: ToolError): void {
    this.finish(state, 'error', errorResponseParts(state.request, error.message), error.message, { error });
  }

  private finishCancelled(
    state: CallState,
    reason: string,
    options: { beforeExecution: boolean; partial?: ToolResult },
  ): void {
    const parts = cancelledResponseParts(state.request, reason, options);
    const display = options.partial?.returnDisplay || reason;
    this.finish(state, 'cancelled', parts, display, {});
  }

  private finish(
    state: CallState,
    status: 'success' | 'error' | 'cancelled',
    responseParts: ToolCallResponseInfo['responseParts'],
    resultDisplay: string,
    extra: { error?: ToolError; diffStat?: ToolResult['diffStat']; fileDiff?: ToolResult['fileDiff'] },
  ): void {
    if (state.done) return;
    const response: ToolCallResponseInfo = {
      callId: state.request.callId,
      name: state.request.name,
      status,
      responseParts,
      resultDisplay,
      durationMs: Math.max(0, Math.round(monotonicMs() - state.startedAt - state.approvalWaitMs)),
      ...(extra.error ? { error: extra.error } : {}),
      ...(extra.fileDiff ? { fileDiff: extra.fileDiff } : {}),
    };
    state.done = {
      request: state.request,
      response,
      ...(state.decision ? { decision: state.decision } : {}),
      ...(state.hookStopMessage !== undefined ? { hookStopMessage: state.hookStopMessage } : {}),
      ...(extra.diffStat ? { diffStat: extra.diffStat } : {}),
    };
    this.setStatus(state, status);
    state.emit({ type: 'tool_call_response', response });
  }

  private setStatus(state: CallState, status: ToolCallStatus): void {
    state.status = status;
    state.emit({ type: 'tool_call_status', callId: state.request.callId, name: state.request.name, status });
  }
}
