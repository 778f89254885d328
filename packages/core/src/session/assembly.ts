import type { BudgetTracker } from '../agent/budgets';
import { Chat } from '../agent/chat';
import type { AgentLoopDeps, LoopState } from '../agent/loop';
import { DEFAULT_RETRY_POLICY } from '../agent/retry';
import {
  DEFAULT_SUBAGENT_LIMITS,
  SubagentRunner,
  subagentDefinitions,
  subagentRules,
} from '../agent/subagents';
import { CallIdGenerator } from '../agent/turn';
import { ChatCompressor, DEFAULT_COMPRESSION } from '../context/compression';
import { DEFAULT_MASKING } from '../context/masking';
import type { ProjectMemory } from '../context/memory-files';
import type { GenerationConfig } from '../contracts/messages';
import type { HookSystem } from '../hooks/hook-system';
import type { ModelSteps } from '../hooks/model-steps';
import { observeOneShotCalls, utilityCalls } from '../llm/observed-generator';
import type { SessionCheckpoints } from '../safety/checkpoints/session-checkpoints';
import { DEFAULT_LOOP_DETECTION, LoopDetector } from '../safety/loop-detection';
import { ApprovalModePolicy } from '../scheduler/policy/approval-mode-policy';
import type { ApprovalMode, PolicyChecker } from '../scheduler/policy/policy';
import { NO_APPROVALS, Scheduler } from '../scheduler/scheduler';
import { fanOut, reportHookRuns, telemetryApiObserver } from '../telemetry/observer';
import type { Telemetry } from '../telemetry/telemetry';
import { DEFAULT_OUTPUT_THRESHOLD_CHARS } from '../tools/output-limit';
import { backgroundJobsIn } from '../tools/shell/background-jobs';
import type { TodoItem, ToolContext } from '../tools/tool';
import { approvalModeAccess } from './approval-access';
import type { ApprovalModeDecision, ApprovalModeSource } from './approval-mode-gate';
import { DeferredTools, withToolSearch } from './deferred-tools';
import { modelOffer } from './model-offer';
import { DEFAULT_MAX_TURNS_PER_PROMPT, type SessionOptions } from './session-types';
import type { SessionStats } from './stats';
import type { SteeringInbox } from './steering';
import { toolModelClient } from './tool-model-client';
import { plannedWindow, toolProfileFor } from './tool-profile';

// How a Session is wired from its options: the chat, the compressor, the tool context, the
// scheduler, subagents, checkpoints and what the agent loop is given. Session (session.ts) owns
// the state and the API; this file only connects the parts, once, in its constructor.

/** What the parts read from and call back into the session that owns them. */
export interface SessionHost {
  readonly id: string;
  readonly cwd: string;
  readonly stats: SessionStats;
  readonly budget: BudgetTracker;
  readonly telemetry: Telemetry;
  readonly hooks: HookSystem | undefined;
  readonly memory: ProjectMemory | undefined;
  readonly requestConfig: GenerationConfig;
  readonly loopState: LoopState;
  readonly steering: SteeringInbox;
  /** The todo list `write_todos` keeps (copies in and out). */
  readonly todos: { get(): TodoItem[]; set(items: TodoItem[]): void };
  approvalMode(): ApprovalMode;
  setApprovalMode(mode: ApprovalMode, request: { source: ApprovalModeSource }): ApprovalModeDecision;
  replaceHistory(history: ReturnType<Chat['getHistory']>, change: { reason: 'rewind' }): void;
  runTools: AgentLoopDeps['runTools'];
  preCompressAuto(check: { compressing: boolean }): Promise<void>;
}

/** The parts a session drives. */
export interface SessionParts {
  chat: Chat;
  compressor: ChatCompressor;
  toolContext: ToolContext;
  checkpoints: SessionCheckpoints | undefined;
  scheduler: Scheduler;
  agents: SubagentRunner;
  deferred: DeferredTools | undefined;
  /** The window planned with for a model: a local server's report, else the model table's. */
  contextWindow: (model: string) => number;
  loopDeps: Omit<AgentLoopDeps, 'promptHooks' | 'record'>;
}

export function assembleSession(options: SessionOptions, host: SessionHost): SessionParts {
  // The front end's statement of whether a person answers (SessionOptions.approvals).
  const approvals = options.approvals ?? NO_APPROVALS;
  const { interactive } = approvals;
  const telemetryObserver = telemetryApiObserver(host.telemetry);
  if (host.hooks) reportHookRuns(host.hooks, host.telemetry);
  // Every model call counts in stats, budgets and telemetry; calls outside the conversation
  // under their own role, as Gemini CLI names them.
  const utility = (role: string) =>
    observeOneShotCalls(
      utilityCalls(options.generator),
      fanOut(host.stats.forRole(role), host.budget, telemetryObserver),
    );
  const conversationObserver = fanOut(host.stats, host.budget, telemetryObserver);
  const deferred =
    options.deferToolsAbove !== undefined ? new DeferredTools(options.deferToolsAbove) : undefined;
  const contextWindow = plannedWindow(options.contextWindows);
  const profile = () => toolProfileFor(options.toolProfile, options.contextWindows, chat.getModel());
  const chat = new Chat({
    generator: options.generator,
    model: options.model,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    ...(options.fallbackModel ? { fallbackModel: options.fallbackModel } : {}),
    observer: conversationObserver,
    ...(options.history ? { history: options.history } : {}),
  });
  const outputLimit = options.outputLimit ?? {
    thresholdChars: DEFAULT_OUTPUT_THRESHOLD_CHARS,
    spillDir: undefined,
  };
  const compressor = new ChatCompressor(utility('utility_compressor'), {
    ...DEFAULT_COMPRESSION,
    thresholdShare: options.compressionThreshold ?? DEFAULT_COMPRESSION.thresholdShare,
    contextWindow,
    outputLimit,
  });
  const policy: PolicyChecker = options.policy ?? new ApprovalModePolicy();
  const tempDir = options.toolContext.workspace.tempDir;
  const toolContext: ToolContext = {
    ...options.toolContext,
    // The shell cuts output with the scheduler's cap; background logs go to the project temp dir.
    shell: options.toolContext.shell ?? {
      jobs: backgroundJobsIn(tempDir),
      outputLimit,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    },
    model: options.toolContext.model ?? toolModelClient(utility('utility_tool'), () => chat.getModel()),
    approvalMode:
      options.toolContext.approvalMode ??
      approvalModeAccess({
        get: () => host.approvalMode(),
        set: (mode) => void host.setApprovalMode(mode, { source: 'tool' }),
      }),
    todos: options.toolContext.todos ?? host.todos,
  };
  const checkpointing = options.checkpointing;
  const checkpoints = checkpointing
    ? checkpointing.store.forSession({
        sessionId: host.id,
        conversation: {
          history: () => chat.getHistory(),
          setHistory: (history) => host.replaceHistory(history, { reason: 'rewind' }),
        },
        shell: checkpointing.shell ?? false,
        ...(checkpointing.onError ? { onError: checkpointing.onError } : {}),
        ...(checkpointing.promptSnapshots !== undefined
          ? { promptSnapshots: checkpointing.promptSnapshots }
          : {}),
      })
    : undefined;
  const scheduler = new Scheduler({
    ...(checkpoints
      ? { beforeExecute: (call, invocation) => checkpoints.beforeExecute(call, invocation.tool) }
      : {}),
    registry: options.tools,
    context: toolContext,
    policy,
    getApprovalMode: () => host.approvalMode(),
    approvals,
    outputLimit,
    ...(host.hooks ? { hooks: host.hooks } : {}),
  });
  const agentLimits = { ...DEFAULT_SUBAGENT_LIMITS, ...options.agentLimits };
  const agents = new SubagentRunner({
    definitions: subagentDefinitions(options.agents ?? [], options.agentOverrides),
    limits: agentLimits,
    generator: options.generator,
    observer: fanOut(host.stats.forRole('subagent'), host.budget, telemetryObserver),
    parentModel: () => chat.getModel(),
    parentConfig: () => host.requestConfig,
    registry: options.tools,
    policy,
    getApprovalMode: () => host.approvalMode(),
    approvals,
    ...(host.hooks ? { hooks: host.hooks } : {}),
    outputLimit,
    toolContext: toolContext,
    budget: host.budget,
    ...(options.retry ? { retry: options.retry } : {}),
    systemInstruction: () =>
      subagentRules({
        cwd: host.cwd,
        approvalMode: host.approvalMode(),
        memory: host.memory?.systemBlock() ?? '',
      }),
  });
  // `agents.maxDepth: 0`: no subagents at all, so invoke_agent is neither offered nor run.
  const delegation = agentLimits.maxDepth > 0;
  toolContext.agents = delegation ? agents : undefined;
  // Model hooks see only the conversation's requests, not the one-shot calls of tools.
  const modelSteps: ModelSteps | undefined = host.hooks ? host.hooks.modelSteps() : undefined;
  const offer = modelOffer({
    options,
    tools: options.tools,
    policy,
    interactive,
    approvalMode: () => host.approvalMode(),
    memory: () => host.memory?.systemBlock() ?? '',
    agents: agents,
    delegation,
    profile,
    ...(deferred ? { deferred: withToolSearch(deferred, options.tools) } : {}),
  });
  const loopDeps: SessionParts['loopDeps'] = {
    chat: chat,
    systemInstruction: offer.systemInstruction,
    tools: offer.tools,
    generationConfig: host.requestConfig,
    runTools: (calls, signal) => host.runTools(calls, signal),
    ...(modelSteps ? { modelSteps } : {}),
    context: {
      compressor: compressor,
      masking: { ...DEFAULT_MASKING, spillDir: options.outputLimit?.spillDir },
      contextWindow,
      sessionId: host.id,
      ...(host.hooks ? { beforeCompressionCheck: (check) => host.preCompressAuto(check) } : {}),
    },
    loops: new LoopDetector(options.loopDetection ?? DEFAULT_LOOP_DETECTION),
    ids: new CallIdGenerator(),
    maxTurnsPerPrompt: options.maxTurnsPerPrompt ?? DEFAULT_MAX_TURNS_PER_PROMPT,
    maxSessionTurns: options.maxSessionTurns ?? -1,
    state: host.loopState,
    budget: host.budget,
    steering: host.steering,
  };
  return { chat, compressor, toolContext, checkpoints, scheduler, agents, deferred, contextWindow, loopDeps };
}
