import { join } from 'node:path';
import { Chat } from '../agent/chat';
import { AgentClient } from '../agent/client';
import type { AgentEvent, ToolCallRequestInfo } from '../agent/events';
import { DEFAULT_RETRY_POLICY } from '../agent/retry';
import { ChatCompressor, type CompressionResult, DEFAULT_COMPRESSION } from '../context/compression';
import { attachDiscoveredContext } from '../context/jit-context';
import { DEFAULT_MASKING } from '../context/masking';
import type { ProjectMemory } from '../context/memory-files';
import type { HookSystem } from '../hooks/hook-system';
import { HookedContentGenerator, ignoreHookVerdicts } from '../hooks/model-hooks';
import { PromptHooks } from '../hooks/prompt-hooks';
import { hookContextBlock, type SessionEndReason, type SessionStartSource } from '../hooks/types';
import { observeOneShotCalls } from '../llm/observed-generator';
import type { Content, Part, UsageMetadata } from '../llm/types';
import { environmentContext } from '../prompts/environment';
import { buildSystemPrompt } from '../prompts/system-prompt';
import { SessionCheckpoints } from '../safety/checkpoints/session-checkpoints';
import { LOOP_NUDGE } from '../safety/loop-detection';
import { cancelledResponseParts } from '../scheduler/function-response';
import { ApprovalModePolicy } from '../scheduler/policy/approval-mode-policy';
import { type ApprovalMode, type PolicyChecker, policyToolInfo } from '../scheduler/policy/policy';
import { type CompletedToolCall, Scheduler } from '../scheduler/scheduler';
import { fanOut, reportHookRuns, telemetryApiObserver } from '../telemetry/observer';
import { NO_TELEMETRY, type Telemetry } from '../telemetry/telemetry';
import { DEFAULT_OUTPUT_THRESHOLD_CHARS } from '../tools/output-limit';
import { BackgroundJobs } from '../tools/shell/background-jobs';
import type { TodoItem, ToolContext } from '../tools/tool';
import { AsyncQueue } from '../utils/async-queue';
import { newSessionId } from '../utils/ids';
import { type BudgetExceeded, BudgetTracker } from './budgets';
import type { TurnRecorder } from './recorder';
import { budgetEvent, DEFAULT_MAX_TURNS_PER_PROMPT, toolModelClient, windowOf } from './session-helpers';
import type { SessionOptions, SessionResult } from './session-types';
import { SessionStats } from './stats';

export type { SessionOptions, SessionResult, SessionStatus } from './session-types';

/**
 * The one driver of the agent loop, shared by headless mode, the interactive UI, the demo and the
 * SDK: model turn → scheduler → function responses → next turn, until the model stops asking for
 * tools. Front ends only consume the AgentEvent stream.
 */
export class Session {
  readonly id: string;
  readonly stats = new SessionStats();
  /** What the session spent (cost per model, tokens, tool calls, time) and its limits. */
  readonly budget: BudgetTracker;
  readonly client: AgentClient;
  private readonly scheduler: Scheduler;
  private approvalMode: ApprovalMode;
  private needsEnvironmentContext: boolean;
  private readonly cwd: string;
  private promptCount = 0;
  private todoItems: TodoItem[] = [];
  /** The tool context as tools see it, with the session's model client and todo list filled in. */
  readonly toolContext: ToolContext;
  private readonly compressor: ChatCompressor;
  private readonly maxTurnsPerPrompt: number;
  /** Context files (KODO.md, AGENTS.md, GEMINI.md); absent = none loaded. */
  readonly memory: ProjectMemory | undefined;
  /** The session's hooks, for `/hooks`; undefined when none are configured. */
  readonly hooks: HookSystem | undefined;
  /** `/restore` and `/rewind`; undefined when checkpointing is off. */
  readonly checkpoints: SessionCheckpoints | undefined;
  private readonly telemetry: Telemetry;
  private readonly recorder: TurnRecorder | undefined;

  constructor(options: SessionOptions) {
    this.id = options.sessionId ?? newSessionId();
    this.approvalMode = options.approvalMode ?? 'default';
    this.maxTurnsPerPrompt = options.maxTurnsPerPrompt ?? DEFAULT_MAX_TURNS_PER_PROMPT;
    this.memory = options.memory;
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.recorder = options.recorder;
    this.budget = new BudgetTracker(options.budgets ?? {});
    if (options.restored?.stats) this.stats.restore(options.restored.stats);
    if (options.restored?.todos) this.todoItems = structuredClone(options.restored.todos);
    this.needsEnvironmentContext = (options.includeEnvironmentContext ?? true) && !options.history?.length;
    this.cwd = options.toolContext.workspace.cwd;
    const interactive = options.confirm !== undefined;
    this.hooks = options.hooks;
    const telemetryObserver = telemetryApiObserver(this.telemetry);
    if (this.hooks) reportHookRuns(this.hooks, this.telemetry);
    // Every model call counts in stats, budgets and telemetry; calls outside the conversation
    // under their own role, as Gemini CLI names them.
    const utility = (role: string) =>
      observeOneShotCalls(
        options.generator,
        fanOut(this.stats.forRole(role), this.budget, telemetryObserver),
      );
    const chatObserver = fanOut(this.stats, this.budget, telemetryObserver);
    const chat = new Chat({
      // Model hooks wrap only the conversation's requests, not the one-shot calls of tools.
      generator: this.hooks ? new HookedContentGenerator(options.generator, this.hooks) : options.generator,
      model: options.model,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      ...(options.fallbackModel ? { fallbackModel: options.fallbackModel } : {}),
      // A hook's stop or block is not an API error: keep it out of stats, budgets and telemetry.
      observer: this.hooks ? ignoreHookVerdicts(chatObserver) : chatObserver,
      ...(options.history ? { history: options.history } : {}),
    });
    const fixedInstruction = options.systemInstruction;
    const outputLimit = options.outputLimit ?? {
      thresholdChars: DEFAULT_OUTPUT_THRESHOLD_CHARS,
      spillDir: undefined,
    };
    this.compressor = new ChatCompressor(utility('utility_compressor'), {
      ...DEFAULT_COMPRESSION,
      thresholdShare: options.compressionThreshold ?? DEFAULT_COMPRESSION.thresholdShare,
      contextWindow: windowOf,
      outputLimit,
    });
    const policy: PolicyChecker = options.policy ?? new ApprovalModePolicy();
    this.client = new AgentClient({
      chat,
      systemInstruction: () =>
        fixedInstruction ??
        buildSystemPrompt({
          approvalMode: this.approvalMode,
          interactive,
          memory: this.memory?.systemBlock() ?? '',
          ...(options.sandbox ? { sandbox: options.sandbox.describe() } : {}),
        }),
      // Tools the policy denies outright are not offered to the model (reference §5.6).
      tools: () =>
        options.tools
          .list()
          .filter(
            (tool) => !policy.isToolHidden?.(policyToolInfo(tool), { mode: this.approvalMode, interactive }),
          )
          .map((tool) => tool.declaration()),
      maxSessionTurns: options.maxSessionTurns ?? -1,
      ...(options.loopDetection ? { loopDetection: options.loopDetection } : {}),
      context: {
        compressor: this.compressor,
        masking: { ...DEFAULT_MASKING, spillDir: options.outputLimit?.spillDir },
        contextWindow: windowOf,
        sessionId: this.id,
        ...(this.hooks ? { beforeCompressionCheck: () => this.hooks?.preCompress('auto') } : {}),
      },
      ...(options.generationConfig ? { generationConfig: options.generationConfig } : {}),
    });
    const tempDir = options.toolContext.workspace.tempDir;
    this.toolContext = {
      ...options.toolContext,
      // The shell cuts output with the scheduler's cap; background logs go to the project temp dir.
      shell: options.toolContext.shell ?? {
        jobs: new BackgroundJobs({ logDir: tempDir ? join(tempDir, 'background-processes') : undefined }),
        outputLimit,
        ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      },
      model:
        options.toolContext.model ??
        toolModelClient(utility('utility_tool'), () => this.client.chat.getModel()),
      todos: options.toolContext.todos ?? {
        get: () => structuredClone(this.todoItems),
        set: (items) => {
          this.todoItems = structuredClone(items);
        },
      },
    };
    const checkpointing = options.checkpointing;
    this.checkpoints = checkpointing
      ? new SessionCheckpoints({
          store: checkpointing.store,
          sessionId: this.id,
          conversation: {
            history: () => this.client.chat.getHistory(),
            setHistory: (history) => this.client.chat.setHistory(history),
          },
          shell: checkpointing.shell ?? false,
          ...(checkpointing.onError ? { onError: checkpointing.onError } : {}),
          ...(checkpointing.promptSnapshots !== undefined
            ? { promptSnapshots: checkpointing.promptSnapshots }
            : {}),
        })
      : undefined;
    const checkpoints = this.checkpoints;
    this.scheduler = new Scheduler({
      ...(checkpoints
        ? { beforeExecute: (call, invocation) => checkpoints.beforeExecute(call, invocation.tool) }
        : {}),
      registry: options.tools,
      context: this.toolContext,
      policy,
      getApprovalMode: () => this.approvalMode,
      ...(options.confirm ? { confirm: options.confirm } : {}),
      outputLimit,
      ...(this.hooks ? { hooks: this.hooks } : {}),
    });
  }

  /**
   * Fires SessionStart (`startup`, `resume`, or `clear`). Returns the hooks' added context as a
   * `<hook_context>` block: headless front ends put it before the prompt, interactive ones make
   * it the first turn of the history.
   */
  async start(source: SessionStartSource, signal?: AbortSignal): Promise<{ context?: string }> {
    if (!this.hooks) return {};
    const { additionalContext } = await this.hooks.sessionStart(source, signal);
    return additionalContext ? { context: hookContextBlock(additionalContext) } : {};
  }

  /**
   * Fires SessionEnd. Its result is only shown, so nothing waits for it in the loop; the promise
   * settles once it and any other advisory hook still running have finished (each within its
   * timeout), for front ends that are about to exit.
   */
  async end(reason: SessionEndReason): Promise<void> {
    if (!this.hooks) return;
    await this.hooks.sessionEnd(reason);
    await this.hooks.settle();
  }

  /**
   * Function responses that were never sent (the prompt stopped first) still join the history,
   * so every call in it keeps its answer. A plain prompt that was not sent is dropped: it may be
   * the very message that did not fit.
   */
  private keepUnsentToolResponses(parts: Part[]): void {
    const responses = parts.filter((part) => part.functionResponse);
    if (responses.length > 0) this.client.chat.addUserContent(responses);
  }

  /** `/compress`: summarise the history now, whatever its size. */
  compress(signal: AbortSignal): Promise<CompressionResult> {
    this.promptCount += 1;
    this.hooks?.preCompress('manual');
    return this.compressor.compress(this.client.chat, {
      trigger: 'manual',
      signal,
      promptId: `${this.id}########${this.promptCount}`,
    });
  }

  /** Share of the model's context window the history used at the last request (0–1). */
  contextUsage(): number | undefined {
    const used = this.client.chat.lastPromptTokens;
    return used === undefined ? undefined : used / windowOf(this.model);
  }

  /** The todo list `write_todos` keeps, for front ends to show. */
  /** Ends the session: stops its background commands (their whole process groups). */
  async dispose(): Promise<void> {
    await this.toolContext.shell?.jobs.dispose();
    await this.telemetry.shutdown();
  }

  todos(): TodoItem[] {
    return this.toolContext.todos?.get() ?? [];
  }

  /** One-shot model calls for tools, always on the session's current model. */
  getApprovalMode(): ApprovalMode {
    return this.approvalMode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.approvalMode = mode;
  }

  get model(): string {
    return this.client.chat.getModel();
  }

  history(): Content[] {
    return this.client.chat.getHistory();
  }

  /** Runs one user prompt to completion, streaming every event; never throws once started. */
  async *sendMessage(input: string | Part[], signal: AbortSignal): AsyncGenerator<AgentEvent, SessionResult> {
    this.promptCount += 1;
    this.budget.start();
    const promptId = `${this.id}########${this.promptCount}`;
    let parts: Part[] = typeof input === 'string' ? [{ text: input }] : input;
    this.checkpoints?.promptStarted(promptId, parts.map((part) => part.text ?? '').join(''));
    const typed = typeof input === 'string' ? input : undefined;
    this.telemetry.userPrompt({ promptId, prompt: parts.map((part) => part.text ?? '').join('') });
    // BeforeAgent sees the prompt as typed; a blocked prompt never reaches the history.
    const promptHooks = this.hooks ? new PromptHooks(this.hooks, parts) : undefined;
    const gate = await promptHooks?.beforeAgent(signal);
    if (gate?.action === 'block') {
      yield { type: 'agent_execution_blocked', reason: gate.message };
      return { status: 'completed', text: '' };
    }
    if (gate?.action === 'continue' && gate.additionalContext) {
      parts = [...parts, { text: hookContextBlock(gate.additionalContext) }];
    }
    if (this.needsEnvironmentContext) {
      this.needsEnvironmentContext = false;
      const projectContext = this.memory?.firstTurnBlock() ?? '';
      const environment = environmentContext({ cwd: this.cwd });
      parts = [{ text: projectContext ? `${environment}\n\n${projectContext}` : environment }, ...parts];
    }
    if (gate?.action === 'stop') {
      // A stopped prompt stays in the history (a blocked one does not).
      this.client.chat.addUserContent(parts);
      this.recordBoundary({ displayText: typed });
      yield { type: 'agent_execution_stopped', reason: gate.message };
      return { status: 'completed', text: '' };
    }

    for (let roundTrips = 1; ; roundTrips += 1) {
      if (roundTrips > this.maxTurnsPerPrompt) {
        // The per-prompt budget: an agent that is still calling tools after this many model
        // turns is more likely stuck than working.
        this.keepUnsentToolResponses(parts);
        yield { type: 'max_session_turns', limit: this.maxTurnsPerPrompt };
        return { status: 'max_session_turns', text: '' };
      }
      const overBudget = this.budget.beforeRequest();
      if (overBudget) {
        // Stop before the request; what it would have sent stays in the history, recorded.
        this.client.chat.addUserContent(parts);
        this.recordBoundary(roundTrips === 1 ? { displayText: typed } : {});
        yield budgetEvent(overBudget);
        return { status: 'budget_exceeded', text: '' };
      }
      let lastError: SessionResult['error'];
      let haltedByHook = false;
      let usage: UsageMetadata | undefined;
      // The prompt (or the tool responses) is on disk before the request goes out; only a new
      // log's first prompt waits for its answer (file creation stays off the startup path).
      this.recordBoundary({ pending: parts, ...(roundTrips === 1 ? { displayText: typed } : {}) });
      const stream = this.client.sendMessageStream(parts, signal, promptId);
      let next = await stream.next();
      while (!next.done) {
        const event = next.value;
        if (event.type === 'agent_execution_stopped' || event.type === 'agent_execution_blocked') {
          haltedByHook = true;
        }
        if (event.type === 'chat_compressed' && event.status !== 'noop') {
          this.telemetry.compression({
            tokensBefore: event.originalTokens,
            tokensAfter: event.newTokens,
            status: event.status,
          });
        }
        if (event.type === 'loop_detected')
          this.telemetry.loopDetected({ promptId, detail: event.detail, action: event.action });
        if (event.type === 'finished' && event.usage) usage = event.usage;
        if (event.type === 'error') {
          lastError = {
            message: event.message,
            ...(event.status !== undefined ? { status: event.status } : {}),
            ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}),
          };
        }
        yield event;
        next = await stream.next();
      }
      const turn = next.value;
      this.recordBoundary({ usage });
      if (haltedByHook) return { status: 'completed', text: turn.text };
      if (turn.outcome === 'loop_nudge') {
        // First loop in this prompt: the stream was cut; ask the model to rethink and go on.
        parts = [{ text: LOOP_NUDGE(turn.loopDetail ?? 'repeated output') }];
        continue;
      }
      if (turn.outcome === 'max_session_turns' || turn.outcome === 'context_overflow') {
        // The client stopped before sending: tool responses still answer their calls.
        this.keepUnsentToolResponses(parts);
      }
      if (turn.outcome !== 'completed') {
        return {
          status: turn.outcome,
          text: turn.text,
          ...(lastError ? { error: lastError } : {}),
        };
      }
      promptHooks?.recordTurn(turn.text);
      if (turn.pendingToolCalls.length === 0) {
        const after = await promptHooks?.afterAgent(signal);
        if (after?.clearContext) {
          this.client.chat.setHistory([]);
          this.recordBoundary();
        }
        if (after?.kind === 'stop') yield { type: 'agent_execution_stopped', reason: after.message };
        if (after?.kind !== 'retry') return { status: 'completed', text: turn.text };
        // An AfterAgent hook rejected the answer: its reason becomes the next prompt.
        yield { type: 'agent_execution_blocked', reason: after.message };
        parts = [{ text: after.prompt }];
        continue;
      }
      const toolsOverBudget = this.budget.beforeTools(turn.pendingToolCalls.length);
      if (toolsOverBudget) {
        yield* this.refuseTools(turn.pendingToolCalls, toolsOverBudget);
        return { status: 'budget_exceeded', text: turn.text };
      }
      const completed = yield* this.runTools(turn.pendingToolCalls, signal);
      this.budget.recordToolCalls(completed.length);
      parts = completed.flatMap((call) => call.response.responseParts);
      // Results that were shown are on disk before anything else happens.
      this.recordBoundary({ pending: parts, toolCalls: completed });
      const stopped = completed.find((call) => call.hookStopMessage !== undefined);
      if (stopped && !signal.aborted) {
        // A tool hook stopped the agent: keep the responses so the history stays valid.
        this.client.chat.addUserContent(parts);
        yield { type: 'agent_execution_stopped', reason: stopped.hookStopMessage! };
        return { status: 'completed', text: '' };
      }
      if (signal.aborted) {
        // Every call was answered (cancelled ones too): record them so the history stays valid.
        this.client.chat.addUserContent(parts);
        yield { type: 'user_cancelled' };
        return { status: 'cancelled', text: '' };
      }
    }
  }

  /**
   * Runs one tool call the person asked for (the UI's `!command` shell mode) through the same
   * scheduler as the model's calls, so policy and approval apply. Events stream like a turn's;
   * nothing is added to the history (the front end decides what the model should learn of it).
   */
  async *runUserToolCall(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, CompletedToolCall> {
    this.promptCount += 1;
    const request = {
      callId: `${name}_${Date.now()}_user`,
      name,
      args,
      promptId: `${this.id}########${this.promptCount}`,
    };
    yield { type: 'tool_call_request', call: request };
    const [completed] = yield* this.runTools([request], signal);
    return completed!;
  }

  /**
   * A budget ran out before the model's calls could run: each is answered as cancelled (so the
   * history stays valid for a later prompt or a resume), recorded, and the stop is announced.
   */
  private *refuseTools(calls: ToolCallRequestInfo[], exceeded: BudgetExceeded): Generator<AgentEvent, void> {
    const reason = `${exceeded.message} The session was stopped before this call ran.`;
    const refused: CompletedToolCall[] = calls.map((request) => ({
      request,
      response: {
        callId: request.callId,
        name: request.name,
        status: 'cancelled',
        responseParts: cancelledResponseParts(request, reason, { beforeExecution: true }),
        resultDisplay: reason,
        durationMs: 0,
      },
    }));
    for (const call of refused) yield { type: 'tool_call_response', response: call.response };
    const parts = refused.flatMap((call) => call.response.responseParts);
    this.recordBoundary({ pending: parts, toolCalls: refused });
    this.client.chat.addUserContent(parts);
    yield budgetEvent(exceeded);
  }

  /** A turn boundary: the recorder makes everything so far durable (see SessionRecorder). */
  private recordBoundary(
    extra: {
      pending?: Part[];
      displayText?: string | undefined;
      toolCalls?: readonly CompletedToolCall[];
      usage?: UsageMetadata | undefined;
    } = {},
  ): void {
    if (!this.recorder) return;
    const chat = this.client.chat;
    this.recorder.record({
      history: chat.liveHistory(),
      rewrites: chat.rewrites,
      model: chat.getModel(),
      stats: () => this.stats.snapshot(),
      todos: () => this.todos(),
      ...(extra.pending ? { pending: extra.pending } : {}),
      ...(extra.displayText !== undefined ? { displayText: extra.displayText } : {}),
      ...(extra.toolCalls ? { toolCalls: extra.toolCalls } : {}),
      ...(extra.usage ? { usage: extra.usage } : {}),
    });
  }

  private async *runTools(
    calls: Parameters<Scheduler['schedule']>[0],
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, Awaited<ReturnType<Scheduler['schedule']>>> {
    const queue = new AsyncQueue<AgentEvent>();
    const done = this.scheduler
      .schedule(calls, signal, (event) => queue.push(event))
      .finally(() => queue.close());
    for await (const event of queue) yield event;
    const completed = await done;
    for (const call of completed) {
      this.stats.recordToolCall(call);
      this.telemetry.toolCall({ call, promptId: call.request.promptId });
    }
    if (this.memory) await attachDiscoveredContext(completed, this.memory, this.toolContext.workspace);
    return completed;
  }
}
