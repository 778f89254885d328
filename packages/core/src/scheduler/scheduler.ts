import type { AgentEvent, ToolCallRequestInfo, ToolCallResponseInfo, ToolCallStatus } from '../agent/events';
import { capToolOutput, type OutputLimit } from '../tools/output-limit';
import type { ToolRegistry } from '../tools/registry';
import {
  type ConfirmationDetails,
  READ_ONLY_KINDS,
  type Tool,
  type ToolContext,
  type ToolError,
  type ToolInvocation,
  type ToolResult,
} from '../tools/tool';
import { monotonicMs } from '../utils/clock';
import { cancelledResponseParts, errorResponseParts, resultResponseParts } from './function-response';
import type { ApprovalMode, PolicyChecker } from './policy/policy';

export type ConfirmationOutcome =
  /** Run this call. */
  | 'proceed_once'
  /** Run it, and allow calls like it for the rest of the session. */
  | 'proceed_always'
  /** Run it, and allow calls like it from now on (saved to the user's policy file). */
  | 'proceed_always_and_save'
  /** Run it with the arguments the person edited (`modifiedArgs`). */
  | 'modify_with_editor'
  /** Don't run it (`reason`, if given, is passed to the model). */
  | 'cancel';

export interface ConfirmationResponse {
  outcome: ConfirmationOutcome;
  /** With `modify_with_editor`: the arguments to run instead (validated again). */
  modifiedArgs?: Record<string, unknown>;
  /** With `cancel`: why, for the model. */
  reason?: string;
}

export interface ConfirmationRequest {
  call: ToolCallRequestInfo;
  details: ConfirmationDetails;
  signal: AbortSignal;
}

/** Asks the person; absent in headless mode, where a call that needs approval is refused. */
export type ConfirmHandler = (request: ConfirmationRequest) => Promise<ConfirmationResponse>;

/** How the call got permission, for the session stats. */
export type ToolDecision = 'accept' | 'reject' | 'modify' | 'auto_accept';

export interface CompletedToolCall {
  request: ToolCallRequestInfo;
  response: ToolCallResponseInfo;
  decision?: ToolDecision;
  diffStat?: { linesAdded: number; linesRemoved: number };
}

export interface SchedulerOptions {
  /** Cap on the output the model reads from one call; cut outputs are saved to a file. */
  outputLimit?: OutputLimit;
  registry: ToolRegistry;
  context: ToolContext;
  policy: PolicyChecker;
  getApprovalMode: () => ApprovalMode;
  confirm?: ConfirmHandler;
}

interface CallState {
  request: ToolCallRequestInfo;
  emit: (event: AgentEvent) => void;
  status: ToolCallStatus;
  startedAt: number;
  invocation?: ToolInvocation;
  decision?: ToolDecision;
  /** The person edited the arguments before approving. */
  modifiedByUser?: boolean;
  done?: CompletedToolCall;
}

/**
 * Runs the tool calls of one model turn: validating → awaiting_approval → scheduled → executing →
 * success | error | cancelled. Contiguous read-only calls form a wave and run in parallel; any
 * other call runs alone. Results come back in the order the model asked for them, and every call
 * gets a response, even when the batch is cancelled, so the history stays valid.
 */
export class Scheduler {
  constructor(private readonly options: SchedulerOptions) {}

  /** Runs the calls; `onEvent` receives status changes, confirmations, progress and responses. */
  async schedule(
    requests: ToolCallRequestInfo[],
    signal: AbortSignal,
    onEvent: (event: AgentEvent) => void,
  ): Promise<CompletedToolCall[]> {
    const states = requests.map<CallState>((request) => ({
      request,
      emit: onEvent,
      status: 'validating',
      startedAt: monotonicMs(),
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

  private isParallelSafe(request: ToolCallRequestInfo): boolean {
    if (request.args.wait_for_previous === true) return false;
    const tool = this.options.registry.get(request.name);
    // Unknown tools fail at once, so they can join any wave.
    return tool === undefined || READ_ONLY_KINDS.has(tool.kind);
  }

  private async prepare(state: CallState, signal: AbortSignal): Promise<'ok' | 'user_denied'> {
    const { request } = state;
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
        message: this.options.registry.notFoundMessage(request.name),
      });
      return 'ok';
    }
    const built = tool.build(request.args, this.options.context);
    if (!built.ok) {
      this.finishError(state, built.error);
      return 'ok';
    }
    state.invocation = built.invocation;
    const policyInput = { name: tool.name, kind: tool.kind, args: built.invocation.params };
    const mode = this.options.getApprovalMode();
    const interactive = this.options.confirm !== undefined;
    const verdict = this.options.policy.check(policyInput, { mode, interactive });
    if (verdict.decision === 'deny') {
      const suffix = verdict.denyMessage ? ` ${verdict.denyMessage}` : '';
      this.finishError(state, {
        type: 'policy_violation',
        message: `Tool execution denied by policy.${suffix}`,
      });
      return 'ok';
    }
    if (verdict.decision === 'allow') {
      state.decision = 'accept';
      this.setStatus(state, 'scheduled');
      return 'ok';
    }
    if (!this.options.confirm) {
      this.finishError(state, {
        type: 'unhandled_exception',
        message: `Tool execution for "${tool.displayName}" requires user confirmation, which is not supported in non-interactive mode.`,
      });
      return 'ok';
    }
    this.setStatus(state, 'awaiting_approval');
    let response: ConfirmationResponse;
    try {
      const details = await built.invocation.confirmationDetails(signal);
      state.emit({ type: 'tool_call_confirmation', call: request, details });
      response = await this.options.confirm({ call: request, details, signal });
    } catch {
      response = { outcome: 'cancel' };
    }
    if (signal.aborted) {
      this.finishCancelled(state, 'Operation cancelled', { beforeExecution: true });
      return 'ok';
    }
    switch (response.outcome) {
      case 'cancel': {
        state.decision = 'reject';
        const reason = response.reason?.trim()
          ? `User denied execution. The user said: ${response.reason.trim()}`
          : 'User denied execution.';
        this.finishCancelled(state, reason, { beforeExecution: true });
        return 'user_denied';
      }
      case 'proceed_always':
      case 'proceed_always_and_save':
        this.options.policy.allowForSession(policyInput, {
          save: response.outcome === 'proceed_always_and_save',
        });
        state.decision = 'auto_accept';
        break;
      case 'modify_with_editor': {
        const rebuilt = tool.build(response.modifiedArgs ?? request.args, this.options.context);
        if (!rebuilt.ok) {
          this.finishError(state, {
            type: 'invalid_tool_params',
            message: `The arguments as modified by the user are invalid: ${rebuilt.error.message}`,
          });
          return 'ok';
        }
        state.invocation = rebuilt.invocation;
        state.modifiedByUser = true;
        state.decision = 'modify';
        break;
      }
      default:
        state.decision = 'accept';
    }
    this.setStatus(state, 'scheduled');
    return 'ok';
  }

  private async execute(state: CallState, signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      this.finishCancelled(state, 'Operation cancelled', { beforeExecution: true });
      return;
    }
    this.setStatus(state, 'executing');
    const callId = state.request.callId;
    const result = await state.invocation!.execute({
      signal,
      onOutput: (output) => state.emit({ type: 'tool_progress', callId, output }),
    });
    if (signal.aborted) {
      this.finishCancelled(state, 'User cancelled tool execution.', {
        beforeExecution: false,
        partial: result,
      });
      return;
    }
    if (result.error) {
      this.finish(
        state,
        'error',
        errorResponseParts(state.request, result.error.message),
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
    this.finish(state, 'success', resultResponseParts(state.request, content), result.returnDisplay, {
      diffStat: result.diffStat,
    });
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
    extra: { error?: ToolError; diffStat?: ToolResult['diffStat'] },
  ): void {
    if (state.done) return;
    const response: ToolCallResponseInfo = {
      callId: state.request.callId,
      name: state.request.name,
      status,
      responseParts,
      resultDisplay,
      durationMs: Math.round(monotonicMs() - state.startedAt),
      ...(extra.error ? { error: extra.error } : {}),
    };
    state.done = {
      request: state.request,
      response,
      ...(state.decision ? { decision: state.decision } : {}),
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
