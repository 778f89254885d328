import { BudgetTracker, type BudgetUsage } from '../agent/budgets';
import type { Chat } from '../agent/chat';
import { type AgentLoopDeps, type LoopOutcome, type LoopState, runAgentLoop } from '../agent/loop';
import type { AgentSummary, SubagentRunner } from '../agent/subagents';
import type { ChatCompressor, CompressionResult } from '../context/compression';
import { attachDiscoveredContext } from '../context/jit-context';
import type { ProjectMemory } from '../context/memory-files';
import type { AgentEvent, ToolCallRequestInfo } from '../contracts/events';
import type { Content, GenerationConfig, Part } from '../contracts/messages';
import type { HookSystem } from '../hooks/hook-system';
import { PromptHooks } from '../hooks/prompt-hooks';
import { hookContextBlock, type SessionEndReason, type SessionStartSource } from '../hooks/types';
import type { Effort } from '../llm/effort';
import { BUILTIN_CATALOGUE } from '../llm/models';
import { environmentContext } from '../prompts/environment';
import type { CheckpointInfo } from '../safety/checkpoints';
import type {
  PromptSummary,
  RestoreOptions,
  RestoreResult,
  RewindMode,
  RewindResult,
  SessionCheckpoints,
} from '../safety/checkpoints/session-checkpoints';
import type { ApprovalMode } from '../scheduler/policy/policy';
import type { CompletedToolCall, Scheduler } from '../scheduler/scheduler';
import { NO_TELEMETRY, type Telemetry } from '../telemetry/telemetry';
import type { FileFiltering } from '../tools/file-filtering';
import type { TodoItem, ToolContext, ToolModelClient } from '../tools/tool';
import type { Workspace } from '../tools/workspace';
import { AsyncQueue } from '../utils/async-queue';
import { newSessionId } from '../utils/ids';
import {
  type ApprovalModeDecision,
  ApprovalModeError,
  type ApprovalModeSource,
  decideApprovalMode,
} from './approval-mode-gate';
import { assembleSession } from './assembly';
import { type ContextBreakdown, computeContextBreakdown } from './context-breakdown';
import type { DeferredTools } from './deferred-tools';
import type { TurnBoundary, TurnRecorder } from './recorder';
import type { SessionChange, SessionOptions } from './session-types';
import { SessionStats, type SessionStatsSnapshot, type StatsTotals } from './stats';
import { statsCost } from './stats-cost';
import { SteeringInbox } from './steering';
import { runUserToolCall, type ToolCallRequester, type UserToolCallDeps } from './user-tool-call';

export type { SessionChange, SessionOptions } from './session-types';

/**
 * The one driver for every front end (headless, the interactive UI, the demo, the SDK): it owns
 * the conversation (chat, tools, policy, hooks, budgets, the record) and runs each prompt
 * through the agent loop (`agent/loop.ts`). Front ends consume its AgentEvent stream and change
 * the conversation only through its methods, which record and announce what they changed.
 */
export class Session {
  readonly id: string;
  private readonly stats = new SessionStats();
  /** What the session spent (cost per model, tokens, tool calls, time) and its limits. */
  private readonly budget: BudgetTracker;
  private readonly deferred: DeferredTools | undefined;
  private readonly chat: Chat;
  private readonly scheduler: Scheduler;
  private approvalMode: ApprovalMode;
  private needsEnvironmentContext: boolean;
  private readonly cwd: string;
  private promptCount = 0;
  private todoItems: TodoItem[] = [];
  /** The tool context as tools see it, with the session's model client and todo list filled in. */
  private readonly toolContext: ToolContext;
  private readonly compressor: ChatCompressor;
  /** Context files (KODO.md, AGENTS.md, GEMINI.md); absent = none loaded. */
  private readonly memory: ProjectMemory | undefined;
  /** The session's hooks; undefined when none are configured. */
  private readonly hooks: HookSystem | undefined;
  /** `/restore` and `/rewind`; undefined when checkpointing is off. */
  private readonly checkpoints: SessionCheckpoints | undefined;
  private readonly telemetry: Telemetry;
  private readonly recorder: TurnRecorder | undefined;
  private readonly loopState: LoopState = { sessionTurns: 0 };
  private readonly loopDeps: Omit<AgentLoopDeps, 'promptHooks' | 'record'>;
  /**
   * The conversation's request settings: the caller's, the session id as the prompt-cache key,
   * and the effort `/effort` chose. One object the loop reads on every request, so a change
   * applies from the next request on.
   */
  private readonly requestConfig: GenerationConfig;
  private readonly listeners = new Set<(change: SessionChange) => void>();
  /** The agents `invoke_agent` can start (built-in and custom). */
  private readonly agents: SubagentRunner;
  /** The window planned with for a model: a local server's report, else the model table's. */
  readonly contextWindow: (model: string) => number;
  private readonly steeringInbox = new SteeringInbox();

  constructor(private readonly options: SessionOptions) {
    this.id = options.sessionId ?? newSessionId();
    this.requestConfig = { ...options.generationConfig, cacheKey: this.id };
    const first = decideApprovalMode(
      { mode: options.approvalMode ?? 'default', source: options.approvalModeSource ?? 'sdk' },
      { lockdown: options.approvalLockdown ?? {} },
    );
    if (!first.ok) throw new ApprovalModeError(first.message);
    this.approvalMode = first.mode;
    this.memory = options.memory;
    this.hooks = options.hooks;
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.recorder = options.recorder;
    this.budget = new BudgetTracker(options.budgets ?? {}, options.models ? { models: options.models } : {});
    if (options.restored?.stats) this.stats.restore(options.restored.stats);
    if (options.restored?.todos) this.todoItems = structuredClone(options.restored.todos);
    this.needsEnvironmentContext = (options.includeEnvironmentContext ?? true) && !options.history?.length;
    this.cwd = options.toolContext.workspace.cwd;
    const parts = assembleSession(options, {
      id: this.id,
      cwd: this.cwd,
      stats: this.stats,
      budget: this.budget,
      telemetry: this.telemetry,
      hooks: this.hooks,
      memory: this.memory,
      requestConfig: this.requestConfig,
      loopState: this.loopState,
      steering: this.steeringInbox,
      todos: {
        get: () => structuredClone(this.todoItems),
        set: (items) => {
          this.todoItems = structuredClone(items);
        },
      },
      approvalMode: () => this.approvalMode,
      setApprovalMode: (mode, request) => this.setApprovalMode(mode, request),
      replaceHistory: (history, change) => this.replaceHistory(history, change),
      runTools: (calls, signal) => this.runTools(calls, signal),
      preCompressAuto: (check) => this.preCompressAuto(check),
    });
    this.chat = parts.chat;
    this.compressor = parts.compressor;
    this.toolContext = parts.toolContext;
    this.checkpoints = parts.checkpoints;
    this.scheduler = parts.scheduler;
    this.agents = parts.agents;
    this.deferred = parts.deferred;
    this.contextWindow = parts.contextWindow;
    this.loopDeps = parts.loopDeps;
  }

  /**
   * Steering: a line the person sends while a prompt runs joins the conversation at the next
   * step boundary (after the current tool results, before the next model request; a `steering`
   * event says when). Lines the prompt ended without taking stay until `takeSteering`.
   */
  steer(text: string): void {
    this.steeringInbox.push(text);
  }

  /** The steering lines no step took (the turn ended first), oldest first; they are removed. */
  takeSteering(): string[] {
    return this.steeringInbox.take();
  }

  /**
   * Fires SessionStart (`startup`, `resume`, or `clear`). Returns the hooks' added context as a
   * `<hook_context>` block: headless front ends put it before the prompt, interactive ones make
   * it the first turn of the history (`addContext`).
   */
  async start(source: SessionStartSource, signal?: AbortSignal): Promise<{ context?: string }> {
    if (!this.hooks) return {};
    const { additionalContext } = await this.hooks.sessionStart(source, signal);
    if (!additionalContext) return {};
    // SessionStart's context is context in every front end, never prompt text: it joins the
    // conversation now, ahead of the first prompt, which stays as typed (docs/architecture.md, "Input").
    const context = hookContextBlock(additionalContext);
    this.addContext([{ text: context }]);
    return { context };
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

  /** Hears every change made through this API, after it was recorded. Returns the unsubscribe. */
  subscribe(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(change: SessionChange): void {
    this.recordBoundary();
    this.announce(change);
  }

  private announce(change: SessionChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /**
   * Adds user content the model should see with the next prompt (the SessionStart hook's context,
   * the output of a command the person ran): it joins the last user turn of the history.
   */
  addContext(parts: Part[]): void {
    if (parts.length === 0) return;
    this.chat.addUserContent(parts);
    this.changed({ type: 'context_added', parts: structuredClone(parts) });
  }

  /** Switches the model for the next requests (`/model`). The caller checks the name is usable. */
  setModel(model: string): void {
    const from = this.chat.getModel();
    if (from === model) return;
    this.chat.setModel(model);
    this.changed({ type: 'model_changed', from, to: model });
  }

  /** How hard the model thinks from the next request on (`/effort`); undefined = the configured one. */
  setEffort(effort: Effort | undefined): void {
    if (effort === undefined) delete this.requestConfig.effort;
    else this.requestConfig.effort = effort;
  }

  /** The effort `/effort` chose, if any (the configured one otherwise applies). */
  get effort(): Effort | undefined {
    return this.requestConfig.effort;
  }

  /** Replaces the whole history (a restored checkpoint, `/clear`, a history given by the SDK). */
  replaceHistory(history: Content[], change: { reason: 'restore' | 'rewind' | 'clear' | 'replace' }): void {
    this.chat.setHistory(history);
    this.changed({ type: 'history_replaced', reason: change.reason, messages: history.length });
  }

  /**
   * A new session that starts from this one's history and settings, under a new id (and its own
   * record, if given); this one is left as it is.
   */
  fork(options: { sessionId?: string; recorder?: TurnRecorder } = {}): Session {
    const { recorder: _parentRecorder, sessionId: _parentId, ...rest } = this.options;
    const forked = new Session({
      ...rest,
      ...options,
      model: this.model,
      approvalMode: this.approvalMode,
      history: this.chat.getHistory(),
      restored: { stats: this.stats.snapshot(), todos: this.todos() },
    });
    // The effort `/effort` chose goes with it (its cache key is its own id).
    forked.setEffort(this.effort);
    // The fork's record holds the inherited history at once: left before its first prompt, it
    // can still be resumed.
    forked.recordBoundary();
    return forked;
  }

  /**
   * PreCompress (`auto`) fires before every request with history, as in Gemini CLI; the request
   * waits for it only when a compression follows (docs/hooks.md says why).
   */
  private async preCompressAuto(check: { compressing: boolean }): Promise<void> {
    const fired = this.hooks?.preCompress('auto');
    if (check.compressing) await fired;
  }

  /** `/compress`: summarise the history now, whatever its size. */
  async compress(signal: AbortSignal, options: { instructions?: string } = {}): Promise<CompressionResult> {
    this.promptCount += 1;
    // As Gemini CLI: an empty history is nothing to compress, and no PreCompress fires.
    if (this.chat.getCuratedHistory().length > 0) await this.hooks?.preCompress('manual');
    const result = await this.compressor.compress(this.chat, {
      trigger: 'manual',
      signal,
      promptId: `${this.id}########${this.promptCount}`,
      ...(options.instructions ? { instructions: options.instructions } : {}),
    });
    if (result.status !== 'noop') {
      this.changed({
        type: 'history_replaced',
        reason: 'compress',
        messages: this.chat.liveHistory().length,
      });
    }
    return result;
  }

  /**
   * `/context`: what the next request would carry, by source (system prompt, built-in tools, each
   * MCP server's tools, context files, skills, history, tool outputs), in estimated tokens, with
   * the model's window and the provider's count at the last request.
   */
  contextBreakdown(): ContextBreakdown {
    const declarations = this.loopDeps.tools().map((declaration) => {
      const spec = this.options.tools.get(declaration.name) as { serverName?: string } | undefined;
      return { declaration, ...(spec?.serverName ? { serverName: spec.serverName } : {}) };
    });
    const measured = this.chat.lastPromptTokens;
    return computeContextBreakdown({
      model: this.model,
      window: this.contextWindow(this.model),
      systemInstruction: this.loopDeps.systemInstruction(),
      memoryBlock: this.memory?.systemBlock() ?? '',
      firstTurnMemoryBlock: this.memory?.firstTurnBlock() ?? '',
      skillSections:
        this.options.systemInstruction === undefined ? (this.options.promptSections?.() ?? []) : [],
      declarations,
      history: this.chat.getHistory(),
      ...(measured !== undefined ? { measured } : {}),
    });
  }

  /** Share of the model's context window the history used at the last request (0–1). */
  contextUsage(): number | undefined {
    const used = this.chat.lastPromptTokens;
    return used === undefined ? undefined : used / this.contextWindow(this.model);
  }

  /**
   * Ends the session: with `SessionOptions.disposeRun` (the SDK's `createSession`), its runtime's
   * one teardown; otherwise its background commands (their whole process groups) and telemetry.
   */
  async dispose(): Promise<void> {
    if (this.options.disposeRun) return this.options.disposeRun();
    await this.toolContext.shell?.jobs.dispose();
    await this.telemetry.shutdown();
  }

  /** The todo list `write_todos` keeps, for front ends to show. */
  todos(): TodoItem[] {
    return this.toolContext.todos?.get() ?? [];
  }

  getApprovalMode(): ApprovalMode {
    return this.approvalMode;
  }

  /**
   * Switches the approval mode, unless the lock-down forbids the new one: the answer says which
   * mode the session is in, or why the switch was refused (the mode then stays as it was).
   */
  setApprovalMode(mode: ApprovalMode, request: { source?: ApprovalModeSource } = {}): ApprovalModeDecision {
    const decision = decideApprovalMode(
      { mode, source: request.source ?? 'sdk' },
      { lockdown: this.options.approvalLockdown ?? {} },
    );
    if (!decision.ok || decision.mode === this.approvalMode) return decision;
    const from = this.approvalMode;
    this.approvalMode = decision.mode;
    // Announced, so every front end (the UI's footer, ACP, stream-json) follows without polling.
    // The mode is not part of the recorded conversation, so nothing is recorded for it.
    this.announce({
      type: 'approval_mode_changed',
      from,
      to: decision.mode,
      source: request.source ?? 'sdk',
    });
    return decision;
  }

  // What front ends show and change beyond the conversation: values and methods, never the
  // objects that keep them (stats, budgets, hooks, checkpoints, context files, agents).

  /** Requests, tokens, tool calls and lines changed so far, per model and role (a copy). */
  statsSnapshot(): SessionStatsSnapshot {
    return this.stats.snapshot();
  }

  /** The counts summed over every model. */
  statsTotals(): StatsTotals {
    return this.stats.totals();
  }

  /** What the session spent so far: tokens, tool calls, cost (resumed turns not included). */
  budgetUsage(): BudgetUsage {
    return this.budget.usage();
  }

  /** Whether a budget limits this session (`--max-cost`, `--max-tokens`, …). */
  hasBudgetLimits(): boolean {
    return this.budget.active;
  }

  /** The folders the session works in and its path checks (`@file` references, command steps). */
  get workspace(): Workspace {
    return this.toolContext.workspace;
  }

  /** Which files the file tools leave out (`.gitignore`, `.geminiignore`): `@file` follows the same rules. */
  get fileFiltering(): Partial<FileFiltering> | undefined {
    return this.toolContext.fileFiltering;
  }

  /** The session's model client for one-shot calls (counted as `utility_tool`), if it has one. */
  oneShotModel(): ToolModelClient | undefined {
    return this.toolContext.model;
  }

  /** The agents `invoke_agent` can start (built-in and custom), for `/agents` and `@name`. */
  listAgents(): AgentSummary[] {
    return [...this.agents.list()];
  }

  /** The context files in use and their text; undefined when the session loads none. */
  contextFiles(): { paths: string[]; text: string } | undefined {
    return this.memory ? { paths: this.memory.paths(), text: this.memory.show() } : undefined;
  }

  /** Reads the context files again (after `/memory add` or an edit); how many are in use. */
  async reloadContextFiles(): Promise<number> {
    await this.memory?.load();
    return this.memory?.paths().length ?? 0;
  }

  /** Stops running a hook (by name or command) for the rest of the session. */
  disableHook(label: string): void {
    this.hooks?.disableHook(label);
  }

  /** Runs a hook disabled with `disableHook` again. */
  enableHook(label: string): void {
    this.hooks?.enableHook(label);
  }

  /** Whether checkpoints are taken (`general.checkpointing.enabled`); the methods below need it. */
  get checkpointing(): boolean {
    return this.checkpoints !== undefined;
  }

  /** Every checkpoint of the project (all sessions), oldest first; none when checkpointing is off. */
  listCheckpoints(): CheckpointInfo[] {
    return this.checkpoints?.list() ?? [];
  }

  /** The prompts of this session `rewind` can go back over, oldest first. */
  rewindablePrompts(): PromptSummary[] {
    return this.checkpoints?.prompts() ?? [];
  }

  /** `/restore <id>`: a checkpoint's files and/or the conversation as it was then. */
  restoreCheckpoint(id: string, what: RestoreOptions): Promise<RestoreResult> {
    return this.checkpointStore().restore(id, what);
  }

  /** `/rewind`: back `count` prompts, the files, the conversation or both. */
  rewind(count: number, mode: RewindMode): Promise<RewindResult> {
    return this.checkpointStore().rewind(count, mode);
  }

  /** Resolves once the checkpoints being taken in the background are written. */
  async checkpointsSettled(): Promise<void> {
    await this.checkpoints?.settle();
  }

  private checkpointStore(): SessionCheckpoints {
    if (!this.checkpoints) throw new Error('Checkpointing is off (general.checkpointing.enabled).');
    return this.checkpoints;
  }

  /** The session's cost so far at list prices (resumed turns included); undefined when a model used has no known price. */
  estimatedCost(): number | undefined {
    return statsCost(this.stats.snapshot(), this.options.models ?? BUILTIN_CATALOGUE);
  }

  get model(): string {
    return this.chat.getModel();
  }

  /** Model round trips made in this session (for `model.maxSessionTurns`). */
  get turnsUsed(): number {
    return this.loopState.sessionTurns;
  }

  history(): Content[] {
    return this.chat.getHistory();
  }

  /**
   * Runs one user prompt to completion, streaming every event; never throws once started.
   * `responseJsonSchema`: the answer must be JSON matching it (structured output; no tools are
   * offered for this prompt, and each provider constrains the answer its own way).
   */
  async *sendMessage(
    input: string | Part[],
    signal: AbortSignal,
    options: { responseJsonSchema?: Record<string, unknown> } = {},
  ): AsyncGenerator<AgentEvent, LoopOutcome> {
    this.promptCount += 1;
    this.budget.start();
    const promptId = `${this.id}########${this.promptCount}`;
    const parts: Part[] = typeof input === 'string' ? [{ text: input }] : input;
    const promptText = parts.map((part) => part.text ?? '').join('');
    this.checkpoints?.promptStarted(promptId, promptText);
    this.telemetry.userPrompt({ promptId, prompt: promptText });
    const preamble = this.needsEnvironmentContext ? this.environmentPreamble() : undefined;
    this.needsEnvironmentContext = false;
    // A local server's window (asked for at setup) decides the tool profile of this first request.
    await this.options.contextWindows?.discover(this.model, signal);
    const schema = options.responseJsonSchema;
    const loop = runAgentLoop(
      {
        ...this.loopDeps,
        ...(schema
          ? {
              tools: () => [],
              generationConfig: { ...this.loopDeps.generationConfig, responseJsonSchema: schema },
            }
          : {}),
        // BeforeAgent sees the prompt as typed, before any preamble.
        ...(this.hooks ? { promptHooks: new PromptHooks(this.hooks, parts) } : {}),
        record: (boundary) => this.recordBoundary(boundary),
      },
      {
        parts,
        promptId,
        ...(typeof input === 'string' ? { displayText: input } : {}),
        ...(preamble ? { preamble } : {}),
      },
      signal,
    );
    let next = await loop.next();
    while (!next.done) {
      this.observe(next.value, promptId);
      yield next.value;
      next = await loop.next();
    }
    // A first prompt nothing answered gives its environment context back to the next one.
    if (preamble && !next.value.promptKept) this.needsEnvironmentContext = true;
    return next.value.outcome;
  }

  private environmentPreamble(): Part[] {
    const projectContext = this.memory?.firstTurnBlock() ?? '';
    const environment = environmentContext({ cwd: this.cwd, roots: this.toolContext.workspace.roots });
    return [{ text: projectContext ? `${environment}\n\n${projectContext}` : environment }];
  }

  /** Telemetry of what the loop did (it only watches; the loop decides). */
  private observe(event: AgentEvent, promptId: string): void {
    if (event.type === 'chat_compressed' && event.status !== 'noop') {
      this.telemetry.compression({
        tokensBefore: event.originalTokens,
        tokensAfter: event.newTokens,
        status: event.status,
      });
    }
    if (event.type === 'loop_detected')
      this.telemetry.loopDetected({ promptId, detail: event.detail, action: event.action });
  }

  /**
   * Runs a tool call outside a model turn (see user-tool-call.ts): one the person typed (the UI's
   * `!command`) runs unasked, though a policy's deny, hooks and the sandbox still apply; with
   * `requestedBy: 'command'` (a custom command's step) or `'client'` (an MCP client of `kodo mcp
   * serve`) it gets every check a model's call gets, approval included. Events stream like a
   * turn's; nothing joins the history.
   */
  runUserToolCall(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    options: { requestedBy?: ToolCallRequester } = {},
  ): AsyncGenerator<AgentEvent, CompletedToolCall> {
    const deps: UserToolCallDeps = {
      nextPromptId: () => {
        this.promptCount += 1;
        return `${this.id}########${this.promptCount}`;
      },
      runTools: (calls, toolSignal, toolOptions) => this.runTools(calls, toolSignal, toolOptions),
    };
    return runUserToolCall(deps, { name, args, requestedBy: options.requestedBy ?? 'user' }, signal);
  }

  /** A turn boundary: the recorder makes everything so far durable (see SessionRecorder). */
  private recordBoundary(
    extra: Omit<TurnBoundary, 'history' | 'rewrites' | 'model' | 'stats' | 'todos'> = {},
  ): void {
    if (!this.recorder) return;
    this.recorder.record({
      history: this.chat.liveHistory(),
      rewrites: this.chat.rewrites,
      model: this.chat.getModel(),
      stats: () => this.stats.current(),
      todos: () => this.todos(),
      ...extra,
    });
  }

  private async *runTools(
    calls: readonly ToolCallRequestInfo[],
    signal: AbortSignal,
    options: Parameters<Scheduler['schedule']>[3] = {},
  ): AsyncGenerator<AgentEvent, CompletedToolCall[]> {
    this.deferred?.noteCalled(calls.map((call) => call.name));
    const queue = new AsyncQueue<AgentEvent>();
    const done = this.scheduler
      .schedule([...calls], signal, (event) => queue.push(event), options)
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
