import type { AgentEvent, ToolCallRequestInfo } from '../contracts/events';
import { notifyApprovalNeeded, type ToolHooks } from '../hooks/tool-hooks';
import { controlFileAmong } from '../safety/control-files';
import type {
  ConfirmationDetails,
  PlanReturnMode,
  Tool,
  ToolContext,
  ToolError,
  ToolInvocation,
} from '../tools/tool';
import { monotonicMs } from '../utils/clock';
import {
  type ApprovalMode,
  type PolicyChecker,
  type PolicyCheckInput,
  policyToolInfo,
} from './policy/policy';

/**
 * The approval step of a tool call, between its validation (and BeforeTool hooks) and its
 * execution. It owns whether a call may run without asking (the policy verdict, a BeforeTool
 * hook's "ask", writes to the project's control files that always ask, a call the person typed
 * themselves), refusing a call that needs approval when no one can give it, asking the person,
 * and what their answer means for the call: run it once, allow calls like it (for the session,
 * saved, or the whole MCP server), run it with the arguments they edited, or deny it.
 *
 * It changes no call state: the scheduler moves the call between statuses and finishes it from
 * what these functions return.
 */

export type ConfirmationOutcome =
  /** Run this call. */
  | 'proceed_once'
  /** Run it, and allow calls like it for the rest of the session. */
  | 'proceed_always'
  /** Run it, and allow calls like it from now on (saved to the user's policy file). */
  | 'proceed_always_and_save'
  /** An MCP tool: run it, and allow every tool of its server for the rest of the session. */
  | 'proceed_always_server'
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
  /** With `proceed_once` on a plan approval: the mode the session switches to. */
  approvalMode?: PlanReturnMode;
}

export interface ConfirmationRequest {
  call: ToolCallRequestInfo;
  details: ConfirmationDetails;
  signal: AbortSignal;
}

/** Asks the person; absent in headless mode, where a call that needs approval is refused. */
export type ConfirmHandler = (request: ConfirmationRequest) => Promise<ConfirmationResponse>;

/**
 * Who answers approval questions, as the front end states it: a person through its dialog, or
 * nobody (headless), when such calls are refused. Stated once, never inferred from whether some
 * callback happens to be present.
 */
export type Approvals = { interactive: true; confirm: ConfirmHandler } | { interactive: false };

/** Nobody to ask: calls that need approval are refused (headless, `kodo -p`). */
export const NO_APPROVALS: Approvals = { interactive: false };

/** How the call got permission, for the session stats. */
export type ToolDecision = 'accept' | 'reject' | 'modify' | 'auto_accept';

/** What the approval step needs from the scheduler's options. */
export interface ApprovalDeps {
  policy: PolicyChecker;
  /** The subagents the call is made inside (the policy's `subagent` rules), outermost first. */
  agentPath?: readonly string[];
  context: ToolContext;
  approvals: Approvals;
  hooks?: ToolHooks;
}

/** A validated call on its way to execution. */
export interface ApprovalSubject {
  request: ToolCallRequestInfo;
  tool: Tool;
  /** The invocation after BeforeTool hooks: its arguments are the ones the policy checks. */
  invocation: ToolInvocation;
  mode: ApprovalMode;
  /** A BeforeTool hook asked for the person's approval whatever the policy says. */
  hookAsks: boolean;
  /** The person typed this call themselves (`!command`): a policy's "ask" allows it. */
  requestedByUser: boolean;
}

/** A call that must be put to the person (see {@link askApproval}). */
export interface ApprovalQuestion {
  request: ToolCallRequestInfo;
  tool: Tool;
  invocation: ToolInvocation;
  mode: ApprovalMode;
  policyInput: PolicyCheckInput;
  confirm: ConfirmHandler;
}

export type ApprovalNeed =
  /** Runs without asking. */
  | { kind: 'allowed' }
  /** Refused without asking: the policy denies it, or it needs an approval no one can give. */
  | { kind: 'refused'; error: ToolError }
  /** The person must answer first. */
  | { kind: 'ask'; question: ApprovalQuestion };

export type ApprovalAnswer =
  | {
      kind: 'approved';
      decision: ToolDecision;
      /** The invocation to run: rebuilt from the edited arguments with `modify_with_editor`. */
      invocation: ToolInvocation;
      modifiedByUser: boolean;
      /** The mode chosen in a plan approval, for `exit_plan_mode`. */
      approvedMode?: PlanReturnMode;
    }
  /** The person said no: the rest of the batch is cancelled too. */
  | { kind: 'denied'; reason: string }
  /** The arguments the person edited do not validate. */
  | { kind: 'refused'; error: ToolError }
  /** The turn was cancelled while the question was open. */
  | { kind: 'cancelled' };

/** Kinds of tool that change files: their writes to control files always ask. */
const EDIT_KINDS: ReadonlySet<string> = new Set(['edit', 'delete', 'move']);

/** Whether the call runs, is refused, or must be put to the person. */
export async function checkApproval(deps: ApprovalDeps, subject: ApprovalSubject): Promise<ApprovalNeed> {
  const { request, tool, invocation, mode } = subject;
  const policyInput = { ...policyToolInfo(tool), args: invocation.params };
  const verdict = await deps.policy.check(policyInput, {
    mode,
    interactive: deps.approvals.interactive,
    workspace: deps.context.workspace,
    ...(deps.agentPath ? { agentPath: deps.agentPath } : {}),
  });
  if (verdict.decision === 'deny') {
    const suffix = verdict.denyMessage ? ` ${verdict.denyMessage}` : '';
    return {
      kind: 'refused',
      error: { type: 'policy_violation', message: `Tool execution denied by policy.${suffix}` },
    };
  }
  // Writes to the project's control files (git hooks and config, kodo/Gemini/Claude settings
  // and policies, editor tasks…) run code on a later start or commit: they always ask.
  const controlFile = mode === 'yolo' ? undefined : controlFileWritten(deps.context, tool, invocation);
  const forceAsk = subject.hookAsks || controlFile !== undefined;
  if ((verdict.decision === 'allow' || subject.requestedByUser) && !forceAsk) return { kind: 'allowed' };
  if (!deps.approvals.interactive && controlFile !== undefined) {
    return {
      kind: 'refused',
      error: {
        type: 'policy_violation',
        message: `Writing ${controlFile} needs the user's approval: it is a control file of the project (it configures git, kodo or another tool, and what it holds can run on the next start or commit). It is refused in non-interactive mode unless the approval mode is yolo.`,
      },
    };
  }
  if (!deps.approvals.interactive) {
    return {
      kind: 'refused',
      error: {
        type: 'unhandled_exception',
        message: `Tool execution for "${tool.displayName}" requires user confirmation, which is not supported in non-interactive mode.`,
      },
    };
  }
  return {
    kind: 'ask',
    question: {
      request,
      tool,
      invocation,
      mode,
      policyInput,
      confirm: deps.approvals.confirm,
    },
  };
}

/**
 * Puts the call to the person and maps their answer. `waitMs` is the time spent waiting for
 * them, which is not the tool's time (`/stats`). A failure to ask counts as a denial.
 */
export async function askApproval(
  deps: ApprovalDeps,
  question: ApprovalQuestion,
  emit: (event: AgentEvent) => void,
  signal: AbortSignal,
): Promise<{ answer: ApprovalAnswer; waitMs: number }> {
  const { request, tool } = question;
  let waitMs = 0;
  let response: ConfirmationResponse;
  try {
    const details = await question.invocation.confirmationDetails(signal);
    if (deps.hooks) notifyApprovalNeeded(deps.hooks, request, tool, details);
    emit({ type: 'tool_call_confirmation', call: request, details });
    const askedAt = monotonicMs();
    try {
      response = await question.confirm({ call: request, details, signal });
    } finally {
      waitMs = monotonicMs() - askedAt;
    }
  } catch {
    response = { outcome: 'cancel' };
  }
  if (signal.aborted) return { answer: { kind: 'cancelled' }, waitMs };
  return { answer: answerFor(deps, question, response), waitMs };
}

function answerFor(
  deps: ApprovalDeps,
  question: ApprovalQuestion,
  response: ConfirmationResponse,
): ApprovalAnswer {
  const approvedMode = response.approvalMode ? { approvedMode: response.approvalMode } : {};
  switch (response.outcome) {
    case 'cancel': {
      const said = response.reason?.trim();
      return {
        kind: 'denied',
        reason: said ? `User denied execution. The user said: ${said}` : 'User denied execution.',
      };
    }
    case 'proceed_always':
    case 'proceed_always_and_save':
    case 'proceed_always_server':
      deps.policy.allowForSession(question.policyInput, {
        save: response.outcome === 'proceed_always_and_save',
        wholeServer: response.outcome === 'proceed_always_server',
        mode: question.mode,
      });
      return {
        kind: 'approved',
        decision: 'auto_accept',
        invocation: question.invocation,
        modifiedByUser: false,
        ...approvedMode,
      };
    case 'modify_with_editor': {
      const rebuilt = question.tool.build(response.modifiedArgs ?? question.request.args, deps.context);
      if (!rebuilt.ok) {
        return {
          kind: 'refused',
          error: {
            type: 'invalid_tool_params',
            message: `The arguments as modified by the user are invalid: ${rebuilt.error.message}`,
          },
        };
      }
      return {
        kind: 'approved',
        decision: 'modify',
        invocation: rebuilt.invocation,
        modifiedByUser: true,
        ...approvedMode,
      };
    }
    default:
      return {
        kind: 'approved',
        decision: 'accept',
        invocation: question.invocation,
        modifiedByUser: false,
        ...approvedMode,
      };
  }
}

/** The control file an edit call would write, if any (see safety/control-files.ts). */
function controlFileWritten(
  context: ToolContext,
  tool: Tool,
  invocation: ToolInvocation,
): string | undefined {
  if (!EDIT_KINDS.has(tool.kind)) return undefined;
  let paths: string[];
  try {
    paths = invocation.locations();
  } catch {
    return undefined;
  }
  return controlFileAmong(paths, context.workspace.roots);
}
