import type { ContentGenerator } from '../contracts/content-generator';
import type { AgentEvent } from '../contracts/events';
import type { GenerationConfig } from '../contracts/messages';
import type { HookSystem } from '../hooks/hook-system';
import type { Effort } from '../llm/effort';
import { LoopDetector } from '../safety/loop-detection';
import type { ApprovalMode, PolicyChecker } from '../scheduler/policy/policy';
import { policyToolInfo } from '../scheduler/policy/policy';
import { type Approvals, type CompletedToolCall, Scheduler } from '../scheduler/scheduler';
import type { OutputLimit } from '../tools/output-limit';
import type { ToolRegistry } from '../tools/registry';
import type { AgentInvoker, ToolContext, ToolResult, ToolSpec } from '../tools/tool';
import { AsyncQueue } from '../utils/async-queue';
import { monotonicMs } from '../utils/clock';
import { BudgetTracker } from './budgets';
import { type ApiCallObserver, Chat } from './chat';
import { type LoopBudget, type LoopOutcome, runAgentLoop } from './loop';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
import { CallIdGenerator } from './turn';

/** One agent the model can delegate to with `invoke_agent`. */
export interface SubagentDefinition {
  name: string;
  description: string;
  /** The child's system prompt (an agent file's body). */
  systemPrompt: string;
  /** Tool names or wildcards (`*`, `mcp_*`, `mcp_<server>_*`); absent = every tool of the parent. */
  tools?: readonly string[];
  /** Absent or `inherit`: the parent's current model. */
  model?: string;
  /** How hard the child's model thinks; absent = the session's effort. */
  effort?: Effort;
  maxTurns?: number;
  timeoutMs?: number;
  /** Tokens the child may use (prompt + output, over all its requests). */
  maxTokens?: number;
  /** Where it was defined (a file path, or `built-in`), for `/agents list`. */
  source: string;
}

/** Limits for every child (settings `agents.*`). */
export interface SubagentLimits {
  /** Turns of a child whose definition names none. */
  maxTurns: number;
  /** Time of a child whose definition names none. */
  timeoutMs: number;
  /**
   * How many levels of agents may run: 0 = none (`invoke_agent` is not offered), 1 = the main
   * agent's children cannot delegate further.
   */
  maxDepth: number;
  /** `agents.maxTurns`: no child takes more turns than this, whatever its definition says. */
  maxTurnsCeiling?: number;
  /** `agents.maxTimeMinutes`: no child runs longer than this, whatever its definition says. */
  timeoutCeilingMs?: number;
}

/** `agents.overrides.<name>`: one agent tuned or turned off by the settings. */
export interface SubagentOverride {
  enabled?: boolean;
  model?: string;
  effort?: Effort;
  maxTurns?: number;
  timeoutMs?: number;
}

export const DEFAULT_SUBAGENT_LIMITS: SubagentLimits = { maxTurns: 30, timeoutMs: 10 * 60_000, maxDepth: 1 };

/** The tools that delegate: never offered to a child past the depth limit. */
const DELEGATING_TOOLS = new Set(['invoke_agent']);

export const BUILTIN_SUBAGENTS: readonly SubagentDefinition[] = [
  {
    name: 'codebase_investigator',
    description:
      'Explores the codebase to answer a question or map what a change would touch: finds files, reads and searches code, and reports its findings with file paths and symbols. Read-only: it never edits files or runs commands.',
    systemPrompt: `You are a codebase investigator working for another agent. Explore the project with the read-only tools you have (list_directory, glob, grep_search, read_file) to answer the objective you are given. Be thorough but efficient: search before you read, read only what matters.

Finish with one answer, without calling more tools, in this shape:
## Summary of findings
What you found, answering the objective directly.
## Relevant locations
- path/to/file.ts — why it matters (key symbols)
## Exploration trace
The searches and reads that led you there, one line each.`,
    tools: ['list_directory', 'glob', 'grep_search', 'read_file'],
    maxTurns: 50,
    source: 'built-in',
  },
  {
    name: 'generalist',
    description:
      "A general-purpose agent with the same tools as you, for a self-contained sub-task (an investigation, a focused change, a batch of edits) whose details you do not need in your own context. Don't run several that change files at the same time.",
    systemPrompt: `You are a capable software engineering agent working on a sub-task for another agent. Nobody can answer questions during this run: do the task on your own with the tools you have, verify what you changed, and finish with a concise final answer that says what you did and found (file paths, commands run and their results).`,
    maxTurns: 20,
    source: 'built-in',
  },
];

/** What a child shares with the session that starts it. */
export interface SubagentRunnerOptions {
  definitions: readonly SubagentDefinition[];
  limits: SubagentLimits;
  generator: ContentGenerator;
  /** Sees every child request, so it counts in the parent's stats, budget and telemetry. */
  observer: ApiCallObserver;
  parentModel: () => string;
  /** The parent's request settings (its effort, cache key); a child's own effort wins. */
  parentConfig?: () => GenerationConfig | undefined;
  /** The parent's tools: a child's set is cut from these, never wider. */
  registry: ToolRegistry;
  policy: PolicyChecker;
  getApprovalMode: () => ApprovalMode;
  /** The parent's approvals: a child's calls ask the same person (or, headless, nobody). */
  approvals: Approvals;
  hooks?: HookSystem;
  outputLimit: OutputLimit;
  toolContext: ToolContext;
  /** The parent's budget gate: a child stops when the session's budget runs out. */
  budget: LoopBudget;
  retry?: Partial<RetryPolicy>;
  /** The system prompt around a child's own: environment, rules, its tools. */
  systemInstruction: (definition: SubagentDefinition) => string;
  /** 1 for the main agent's children. */
  depth?: number;
  /** The agents this runner's children run inside (empty for the main agent's children). */
  agentPath?: readonly string[];
}

/** How a child ended, in the words of the result the parent model reads. */
type Termination = 'GOAL' | 'MAX_TURNS' | 'TIMEOUT' | 'ABORTED' | 'ERROR';

/**
 * Runs subagents: each child is the same agent loop as the main one, with its own chat
 * (history and model), system prompt, tool set, turn, time and token limits. Its tool calls go
 * through a scheduler with the parent's policy, approval mode and confirmation, so a child can
 * never do what the parent's policy would not let the parent do.
 */
export class SubagentRunner implements AgentInvoker {
  private readonly byName: Map<string, SubagentDefinition>;
  private readonly depth: number;

  constructor(private readonly options: SubagentRunnerOptions) {
    this.byName = new Map(
      options.definitions.map((definition) => [definition.name.toLowerCase(), definition]),
    );
    this.depth = options.depth ?? 1;
  }

  list(): readonly { name: string; description: string; source: string }[] {
    return [...this.byName.values()].map(({ name, description, source }) => ({ name, description, source }));
  }

  async invoke(
    request: { name: string; prompt: string },
    execution: { signal: AbortSignal; onEvent?: (event: AgentEvent) => void },
  ): Promise<ToolResult> {
    const definition = this.byName.get(request.name.toLowerCase());
    if (!definition) {
      const known = this.list()
        .map((agent) => agent.name)
        .join(', ');
      const message = `Subagent '${request.name}' not found. Available: ${known || 'none'}.`;
      return { llmContent: message, returnDisplay: message, error: { type: 'invalid_tool_params', message } };
    }
    const started = monotonicMs();
    const run = await this.runChild(definition, request.prompt, execution);
    const seconds = ((monotonicMs() - started) / 1000).toFixed(1);
    const toolNames = [...new Set(run.toolCalls.map((call) => call.request.name))];
    const footer = `[${definition.name}: ${run.turns} turn(s), ${run.toolCalls.length} tool call(s)${toolNames.length > 0 ? ` (${toolNames.join(', ')})` : ''}, ${seconds}s, ended: ${run.outcome.kind}]`;
    const answer = run.outcome.text.trim();
    if (run.termination === 'GOAL') {
      const text = `Subagent '${definition.name}' finished.\nTermination Reason: GOAL\nResult:\n${answer}\n\n${footer}`;
      return { llmContent: text, returnDisplay: `${answer}\n${footer}` };
    }
    const why = failureText(run.outcome, run.termination, definition);
    const text = `Subagent '${definition.name}' failed. Error: ${why}\nTermination Reason: ${run.termination}${answer ? `\nPartial result:\n${answer}` : ''}\n\n${footer}`;
    const type = run.termination === 'ABORTED' ? 'cancelled' : 'subagent_failed';
    return { llmContent: text, returnDisplay: `${why}\n${footer}`, error: { type, message: why } };
  }

  private async runChild(
    definition: SubagentDefinition,
    prompt: string,
    execution: { signal: AbortSignal; onEvent?: (event: AgentEvent) => void },
  ): Promise<{
    outcome: LoopOutcome;
    termination: Termination;
    turns: number;
    toolCalls: CompletedToolCall[];
  }> {
    const { options } = this;
    const { limits } = options;
    const timeoutMs = Math.min(definition.timeoutMs ?? limits.timeoutMs, limits.timeoutCeilingMs ?? Infinity);
    const maxTurns = Math.min(definition.maxTurns ?? limits.maxTurns, limits.maxTurnsCeiling ?? Infinity);
    const controller = new AbortController();
    let timedOut = false;
    const onParentAbort = () => controller.abort(execution.signal.reason);
    execution.signal.addEventListener('abort', onParentAbort, { once: true });
    if (execution.signal.aborted) controller.abort();
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    timer.unref?.();
    const own = new BudgetTracker(
      definition.maxTokens !== undefined ? { maxTokens: definition.maxTokens } : {},
    );
    own.start();
    const registry = this.childRegistry(definition);
    const chat = new Chat({
      generator: options.generator,
      model: definition.model && definition.model !== 'inherit' ? definition.model : options.parentModel(),
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      observer: {
        onApiResponse: (info) => {
          own.onApiResponse(info);
          options.observer.onApiResponse(info);
        },
        onApiError: (info) => options.observer.onApiError(info),
      },
    });
    const toolCalls: CompletedToolCall[] = [];
    // The policy's `subagent` rules see which agent (and which agents above it) makes a call.
    const agentPath = [...(options.agentPath ?? []), definition.name];
    const grandchildren =
      this.depth < options.limits.maxDepth
        ? new SubagentRunner({ ...options, depth: this.depth + 1, registry, agentPath })
        : undefined;
    const scheduler = new Scheduler({
      registry,
      context: {
        ...options.toolContext,
        ...(grandchildren ? { agents: grandchildren } : { agents: undefined }),
      },
      policy: options.policy,
      getApprovalMode: options.getApprovalMode,
      agentPath,
      approvals: options.approvals,
      outputLimit: options.outputLimit,
      ...(options.hooks ? { hooks: options.hooks } : {}),
    });
    const { interactive } = options.approvals;
    const state = { sessionTurns: 0 };
    const loop = runAgentLoop(
      {
        chat,
        systemInstruction: () => `${definition.systemPrompt}\n\n${options.systemInstruction(definition)}`,
        // Freeform tools (apply_patch) are declared; the wire decides whether it can carry them.
        tools: () =>
          registry
            .list()
            .filter(
              (tool) =>
                !options.policy.isToolHidden?.(policyToolInfo(tool), {
                  mode: options.getApprovalMode(),
                  interactive,
                  agentPath,
                }),
            )
            .map((tool) => tool.declaration()),
        ...childConfig(definition, options.parentConfig?.()),
        async *runTools(calls, signal) {
          const queue = new AsyncQueue<AgentEvent>();
          const done = scheduler
            .schedule([...calls], signal, (event) => queue.push(event))
            .finally(() => queue.close());
          for await (const event of queue) yield event;
          const completed = await done;
          toolCalls.push(...completed);
          return completed;
        },
        loops: new LoopDetector(),
        ids: new CallIdGenerator(),
        maxTurnsPerPrompt: maxTurns,
        maxSessionTurns: -1,
        state,
        budget: {
          beforeRequest: (model) => options.budget.beforeRequest(model) ?? own.beforeRequest(model),
          beforeTools: (count) => options.budget.beforeTools(count) ?? own.beforeTools(count),
          recordToolCalls: (count) => {
            options.budget.recordToolCalls(count);
            own.recordToolCalls(count);
          },
        },
      },
      {
        parts: [{ text: prompt.trim() === '' ? 'Get started!' : prompt }],
        promptId: `${definition.name}-${Date.now()}`,
      },
      controller.signal,
    );
    try {
      let next = await loop.next();
      while (!next.done) {
        execution.onEvent?.(next.value);
        next = await loop.next();
      }
      const { outcome } = next.value;
      return {
        outcome,
        termination: terminationOf(outcome, { timedOut }),
        turns: state.sessionTurns,
        toolCalls,
      };
    } finally {
      clearTimeout(timer);
      execution.signal.removeEventListener('abort', onParentAbort);
    }
  }

  /** The parent's tools that the definition names, without delegation past the depth limit. */
  private childRegistry(definition: SubagentDefinition): ToolRegistry {
    const allowDelegation = this.depth < this.options.limits.maxDepth;
    const matches = toolMatcher(definition.tools);
    const tools = this.options.registry
      .list()
      .filter((tool) => matches(tool.name) && (allowDelegation || !DELEGATING_TOOLS.has(tool.name)));
    return this.options.registry.subset(tools.map((tool: ToolSpec) => tool.name));
  }
}

/** `*` and trailing-`*` wildcards over tool names; no list means every tool. */
function toolMatcher(patterns: readonly string[] | undefined): (name: string) => boolean {
  if (!patterns) return () => true;
  const exact = new Set(patterns.filter((pattern) => !pattern.endsWith('*')));
  const prefixes = patterns.filter((pattern) => pattern.endsWith('*')).map((pattern) => pattern.slice(0, -1));
  return (name) => exact.has(name) || prefixes.some((prefix) => name.startsWith(prefix));
}

function terminationOf(outcome: LoopOutcome, { timedOut }: { timedOut: boolean }): Termination {
  switch (outcome.kind) {
    case 'completed':
      return 'GOAL';
    case 'turn_limit':
      return 'MAX_TURNS';
    case 'cancelled':
      return timedOut ? 'TIMEOUT' : 'ABORTED';
    default:
      return 'ERROR';
  }
}

function failureText(outcome: LoopOutcome, termination: Termination, definition: SubagentDefinition): string {
  switch (termination) {
    case 'MAX_TURNS':
      return `Agent reached max turns limit (${outcome.kind === 'turn_limit' ? outcome.limit : definition.maxTurns}).`;
    case 'TIMEOUT':
      return 'Agent ran out of time before it finished.';
    case 'ABORTED':
      return 'Agent execution was terminated before completion.';
    default:
      switch (outcome.kind) {
        case 'error':
          return outcome.failure.message;
        case 'budget':
          return outcome.exceeded.message;
        case 'halted_by_hook':
        case 'blocked_by_hook':
          return `A hook ended the agent: ${outcome.reason}`;
        case 'loop_detected':
          return `The agent kept repeating itself: ${outcome.detail}`;
        case 'context_overflow':
          return 'The agent ran out of context window.';
        default:
          return `The agent ended as ${outcome.kind}.`;
      }
  }
}

/**
 * Built-ins first: a custom agent cannot replace one (the first definition of a name wins). The
 * settings' overrides (by name, any case) then turn an agent off or set its model and limits.
 */
export function subagentDefinitions(
  custom: readonly SubagentDefinition[],
  overrides: Readonly<Record<string, SubagentOverride>> = {},
): SubagentDefinition[] {
  const byName = new Map(Object.entries(overrides).map(([name, value]) => [name.toLowerCase(), value]));
  const seen = new Set<string>();
  return [...BUILTIN_SUBAGENTS, ...custom].flatMap((definition) => {
    const key = definition.name.toLowerCase();
    if (seen.has(key)) return [];
    seen.add(key);
    const override = byName.get(key);
    if (!override) return [definition];
    if (override.enabled === false) return [];
    return [
      {
        ...definition,
        ...(override.model !== undefined ? { model: override.model } : {}),
        ...(override.effort !== undefined ? { effort: override.effort } : {}),
        ...(override.maxTurns !== undefined ? { maxTurns: override.maxTurns } : {}),
        ...(override.timeoutMs !== undefined ? { timeoutMs: override.timeoutMs } : {}),
      },
    ];
  });
}

/** A child's request settings: its own effort over the parent's (a `/effort` the user chose). */
function childConfig(
  definition: SubagentDefinition,
  parent: GenerationConfig | undefined,
): { generationConfig?: GenerationConfig } {
  const effort = definition.effort ?? parent?.effort;
  return effort ? { generationConfig: { effort } } : {};
}

/** What every subagent is told after its own prompt. */
export function subagentRules(options: { cwd: string; approvalMode: string; memory: string }): string {
  return [
    `# Working as a subagent
You work for another agent, not directly for the user. Nobody can answer questions or approve anything during this run: finish the task on your own. The working directory is ${options.cwd}; paths must stay inside the workspace. Approval mode: ${options.approvalMode}; a refused tool call will stay refused, so adapt instead of retrying it. End with one final answer and no tool calls in that turn: it is all the other agent will see of your work.`,
    ...(options.memory ? [options.memory] : []),
  ].join('\n\n');
}
