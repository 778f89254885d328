import { BudgetTracker, type BudgetUsage } from '../agent/budgets';
import type { Chat } from '../agent/chat';
import { type LoopOutcome, type LoopState, runAgentLoop } from '../agent/loop';
import type { AgentSummary, SubagentRunner } from '../agent/subagents';
import type { CompressionResult } from '../context/compression';
import type { ProjectMemory } from '../context/memory-files';
import type { AgentEvent, ToolCallRequestInfo } from '../contracts/events';
import type { Content, GenerationConfig, Part } from '../contracts/messages';
import type { HookSystem } from '../hooks/hook-system';
import type { SessionEndReason, SessionStartSource } from '../hooks/types';
import type { Effort } from '../llm/effort';
import { BUILTIN_CATALOGUE } from '../llm/models';
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
import type { CompletedToolCall } from '../scheduler/scheduler';
import { NO_TELEMETRY, type Telemetry } from '../telemetry/telemetry';
import type { FileFiltering } from '../tools/file-filtering';
import type { TodoItem, ToolContext, ToolModelClient } from '../tools/tool';
import type { Workspace } from '../tools/workspace';
import { newSessionId } from '../utils/ids';
import type { ApprovalModeDecision, ApprovalModeSource } from './approval-mode-gate';
import { ApprovalModeState } from './approval-mode-state';
import { assembleSession, type SessionParts } from './assembly';
import { ChangeFeed } from './change-feed';
import { type ContextBreakdown, computeContextBreakdown, contextMaterial } from './context-breakdown';
import { ConversationEdits } from './conversation-edits';
import { forkOptions } from './fork';
import { preCompressAuto, sessionEnded, sessionStartContext } from './lifecycle-hooks';
import { PromptIds } from './prompt-ids';
import { PromptRunner } from './prompt-run';
import type { TurnBoundary, TurnRecorder } from './recorder';
import type { SessionChange, SessionOptions } from './session-types';
import { SessionStats, type SessionStatsSnapshot, type StatsTotals } from './stats';
import { statsCost } from './stats-cost';
import { SteeringInbox } from './steering';
import { runSessionTools, type ToolRunDeps, type ToolRunOptions } from './tool-runs';
import { runUserToolCall, type ToolCallRequester } from './user-tool-call';

export type { SessionChange, SessionOptions } from './session-types';

/**
 * The one driver for every front end (headless, the interactive UI, the demo, the SDK): it owns
 * the conversation (chat, tools, policy, hooks, budgets, the record) and runs each prompt
 * through the agent loop (`agent/loop.ts`). Front ends consume its AgentEvent stream and change
 * the conversation only through its methods, which record and announce what they changed.
 *
 * This class is the API and the state it owns; each concept behind it has its file: wiring the
 * parts (assembly.ts), sending a message (prompt-run.ts), running tools (tool-runs.ts), changes
 * to the conversation (conversation-edits.ts) and who hears of them (change-feed.ts), the
 * approval mode (approval-mode-state.ts), forking (fork.ts) and the session's own hooks
 * (lifecycle-hooks.ts).
 */
export class Session {
  readonly id: string;
  private readonly stats = new SessionStats();
  /** What the session spent (cost per model, tokens, tool calls, time) and its limits. */
  private readonly budget: BudgetTracker;
  private readonly chat: Chat;
  private readonly approvalMode: ApprovalModeState;
  private readonly promptIds: PromptIds;
  private todoItems: TodoItem[] = [];
  /** The tool context as tools see it, with the session's model client and todo list filled in. */
  private readonly toolContext: ToolContext;
  /** Context files (KODO.md, AGENTS.md, GEMINI.md); absent = none loaded. */
  private readonly memory: ProjectMemory | undefined;
  /** The session's hooks; undefined when none are configured. */
  private readonly hooks: HookSystem | undefined;
  /** `/restore` and `/rewind`; undefined when checkpointing is off. */
  private readonly checkpoints: SessionCheckpoints | undefined;
  private readonly telemetry: Telemetry;
  private readonly recorder: TurnRecorder | undefined;
  private readonly loopState: LoopState = { sessionTurns: 0 };
  private readonly loopDeps: SessionParts['loopDeps'];
  /** The scheduler and what a batch of tool calls is counted in (tool-runs.ts). */
  private readonly toolRuns: ToolRunDeps;
  /**
   * The conversation's request settings: the caller's, the session id as the prompt-cache key,
   * and the effort `/effort` chose. One object the loop reads on every request, so a change
   * applies from the next request on.
   */
  private readonly requestConfig: GenerationConfig;
  private readonly changes = new ChangeFeed(() => this.recordBoundary());
  private readonly edits: ConversationEdits;
  private readonly prompts: PromptRunner;
  /** The agents `invoke_agent` can start (built-in and custom). */
  private readonly agents: SubagentRunner;
  /** The window planned with for a model: a local server's report, else the model table's. */
  readonly contextWindow: (model: string) => number;
  private readonly steeringInbox = new SteeringInbox();

  constructor(private readonly options: SessionOptions) {
    this.id = options.sessionId ?? newSessionId();
    this.requestConfig = { ...options.generationConfig, cacheKey: this.id };
    this.approvalMode = new ApprovalModeState(
      { mode: options.approvalMode ?? 'default', source: options.approvalModeSource ?? 'sdk' },
      options.approvalLockdown ?? {},
      (change) => this.changes.announce(change),
    );
    this.promptIds = new PromptIds(this.id);
    this.memory = options.memory;
    this.hooks = options.hooks;
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.recorder = options.recorder;
    this.budget = new BudgetTracker(options.budgets ?? {}, options.models ? { models: options.models } : {});
    if (options.restored?.stats) this.stats.restore(options.restored.stats);
    if (options.restored?.todos) this.todoItems = structuredClone(options.restored.todos);
    const parts = assembleSession(options, {
      id: this.id,
      cwd: options.toolContext.workspace.cwd,
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
      approvalMode: () => this.approvalMode.get(),
      setApprovalMode: (mode, request) => this.setApprovalMode(mode, request),
      replaceHistory: (history, change) => this.replaceHistory(history, change),
      runTools: (calls, signal) => this.runTools(calls, signal),
      preCompressAuto: (check) => preCompressAuto(this.hooks, check),
    });
    this.chat = parts.chat;
    this.toolContext = parts.toolContext;
    this.checkpoints = parts.checkpoints;
    this.agents = parts.agents;
    this.contextWindow = parts.contextWindow;
    this.loopDeps = parts.loopDeps;
    this.toolRuns = {
      scheduler: parts.scheduler,
      stats: this.stats,
      telemetry: this.telemetry,
      deferred: parts.deferred,
      memory: this.memory,
      workspace: this.toolContext.workspace,
    };
    this.edits = new ConversationEdits({
      chat: parts.chat,
      compressor: parts.compressor,
      hooks: this.hooks,
      changes: this.changes,
    });
    this.prompts = new PromptRunner(
      {
        promptIds: this.promptIds,
        budget: this.budget,
        checkpoints: this.checkpoints,
        telemetry: this.telemetry,
        hooks: this.hooks,
        memory: this.memory,
        workspace: this.toolContext.workspace,
        contextWindows: options.contextWindows,
        model: () => this.model,
        loopDeps: this.loopDeps,
        record: (boundary) => this.recordBoundary(boundary),
      },
      { environmentContext: (options.includeEnvironmentContext ?? true) && !options.history?.length },
    );
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
   * Fires SessionStart (`startup`, `resume`, or `clear`) and adds the hooks' added context to the
   * conversation as a `<hook_context>` block (`addContext`), the same for every front end. The
   * block is returned too; a caller must not add it again.
   */
  async start(source: SessionStartSource, signal?: AbortSignal): Promise<{ context?: string }> {
    if (!this.hooks) return {};
    const context = await sessionStartContext(this.hooks, source, signal);
    if (!context) return {};
    // SessionStart's context is context in every front end, never prompt text: it joins the
    // conversation now, ahead of the first prompt, which stays as typed (docs/architecture.md, "Input").
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
    await sessionEnded(this.hooks, reason);
  }

  /** Hears every change made through this API, after it was recorded. Returns the unsubscribe. */
  subscribe(listener: (change: SessionChange) => void): () => void {
    return this.changes.subscribe(listener);
  }

  /**
   * Adds user content the model should see with the next prompt (the SessionStart hook's context,
   * the output of a command the person ran): it joins the last user turn of the history.
   */
  addContext(parts: Part[]): void {
    this.edits.addContext(parts);
  }

  /** Switches the model for the next requests (`/model`). The caller checks the name is usable. */
  setModel(model: string): void {
    this.edits.setModel(model);
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
    this.edits.replaceHistory(history, change);
  }

  /**
   * A new session that starts from this one's history and settings, under a new id (and its own
   * record, if given); this one is left as it is.
   */
  fork(options: { sessionId?: string; recorder?: TurnRecorder } = {}): Session {
    const forked = new Session(
      forkOptions(
        this.options,
        {
          model: this.model,
          approvalMode: this.approvalMode.get(),
          history: this.chat.getHistory(),
          stats: this.stats.snapshot(),
          todos: this.todos(),
        },
        options,
      ),
    );
    // The effort `/effort` chose goes with it (its cache key is its own id).
    forked.setEffort(this.effort);
    // The fork's record holds the inherited history at once: left before its first prompt, it
    // can still be resumed.
    forked.recordBoundary();
    return forked;
  }

  /** `/compress`: summarise the history now, whatever its size. */
  compress(signal: AbortSignal, options: { instructions?: string } = {}): Promise<CompressionResult> {
    return this.edits.compress(signal, { promptId: this.promptIds.next(), ...options });
  }

  /**
   * `/context`: what the next request would carry, by source (system prompt, built-in tools, each
   * MCP server's tools, context files, skills, history, tool outputs), in estimated tokens, with
   * the model's window and the provider's count at the last request.
   */
  contextBreakdown(): ContextBreakdown {
    return computeContextBreakdown(
      contextMaterial({
        model: this.model,
        window: this.contextWindow(this.model),
        loopDeps: this.loopDeps,
        chat: this.chat,
        tools: this.options.tools,
        memory: this.memory,
        options: this.options,
      }),
    );
  }

  /** Share of the model's context window the history used at the last request (0–1). */
  contextUsage(): number | undefined {
    const used = this.chat.lastPromptTokens;
    return used === undefined ? undefined : used / this.contextWindow(this.model);
  }

  /**
   * Ends the session. One a runtime issued goes through the runtime (`SessionOptions.disposeRun`):
   * the SDK's `createSession` closes its runtime, in its one teardown order; a shared runtime's
   * session refuses and names `runtime.close()`. A session built by hand stops its background
   * commands (their whole process groups) and telemetry.
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
    return this.approvalMode.get();
  }

  /**
   * Switches the approval mode, unless the lock-down forbids the new one: the answer says which
   * mode the session is in, or why the switch was refused (the mode then stays as it was).
   */
  setApprovalMode(mode: ApprovalMode, request: { source?: ApprovalModeSource } = {}): ApprovalModeDecision {
    return this.approvalMode.set(mode, request.source ?? 'sdk');
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
    const prompt = await this.prompts.begin(input, signal, options);
    const loop = runAgentLoop(prompt.loopDeps, prompt.input, signal);
    let next = await loop.next();
    while (!next.done) {
      this.prompts.observe(next.value, prompt.input.promptId);
      yield next.value;
      next = await loop.next();
    }
    this.prompts.end(prompt, next.value);
    return next.value.outcome;
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
    return runUserToolCall(
      {
        nextPromptId: () => this.promptIds.next(),
        runTools: (calls, toolSignal, toolOptions) => this.runTools(calls, toolSignal, toolOptions),
      },
      { name, args, requestedBy: options.requestedBy ?? 'user' },
      signal,
    );
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

  private runTools(
    calls: readonly ToolCallRequestInfo[],
    signal: AbortSignal,
    options?: ToolRunOptions,
  ): AsyncGenerator<AgentEvent, CompletedToolCall[]> {
    return runSessionTools(this.toolRuns, calls, signal, options);
  }
}
