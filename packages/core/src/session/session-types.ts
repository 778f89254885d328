import type { BudgetLimits } from '../agent/budgets';
import type { RetryPolicy } from '../agent/retry';
import type { SubagentDefinition, SubagentLimits, SubagentOverride } from '../agent/subagents';
import type { ProjectMemory } from '../context/memory-files';
import type { ContentGenerator } from '../contracts/content-generator';
import type { Content, GenerationConfig, Part } from '../contracts/messages';
import type { CommandSandbox } from '../contracts/sandbox';
import type { HookSystem } from '../hooks/hook-system';
import type { ContextWindowSource } from '../llm/context-windows';
import type { ModelCatalogue } from '../llm/model-info';
import type { CheckpointStore } from '../safety/checkpoints';
import type { LoopDetectionOptions } from '../safety/loop-detection';
import type { ApprovalMode, PolicyChecker } from '../scheduler/policy/policy';
import type { Approvals } from '../scheduler/scheduler';
import type { Telemetry } from '../telemetry/telemetry';
import type { OutputLimit } from '../tools/output-limit';
import type { ToolRegistry } from '../tools/registry';
import type { TodoItem, ToolContext } from '../tools/tool';
import type { ApprovalLockdown, ApprovalModeSource } from './approval-mode-gate';
import type { TurnRecorder } from './recorder';
import type { SessionStatsSnapshot } from './stats';

// What a Session is made from and what it tells its listeners (session.ts holds the driver).

export interface SessionOptions {
  generator: ContentGenerator;
  model: string;
  tools: ToolRegistry;
  toolContext: ToolContext;
  approvalMode?: ApprovalMode;
  /**
   * What the settings lock (`security.disableYoloMode`, `admin.secureModeEnabled`): the first
   * mode and every change are decided against it (approval-mode-gate.ts). Absent = nothing locked.
   */
  approvalLockdown?: ApprovalLockdown;
  /** Who asked for `approvalMode` (the refusal's wording); default `sdk`. */
  approvalModeSource?: ApprovalModeSource;
  policy?: PolicyChecker;
  /**
   * Whether a person answers approval questions, as the front end states it (never inferred from
   * a handler being there). Absent = `{ interactive: false }`: every call that would ask is
   * refused. A runtime always states it (RuntimeParts.sessionOptions).
   */
  approvals?: Approvals;
  /** Model round-trips allowed in the session; negative = unlimited. */
  maxSessionTurns?: number;
  retry?: Partial<RetryPolicy>;
  sessionId?: string;
  /** Extra system prompt sections, read at each request (the skills on offer). */
  promptSections?: () => readonly string[];
  /** Replaces kodo's system prompt. */
  systemInstruction?: string;
  /** Read at each request and appended to the built system prompt (MCP servers' instructions). */
  systemAddendum?: () => string | undefined;
  /** Add date, OS, cwd and a listing to the first user message (default true). */
  includeEnvironmentContext?: boolean;
  generationConfig?: GenerationConfig;
  /**
   * Context windows learnt at run time (local servers; the provider router). They win over the
   * model catalogue for compression and the overflow check, and pick the automatic tool profile.
   */
  contextWindows?: ContextWindowSource;
  /** The model catalogue with the settings' overrides (the router's); default: the built-in one. */
  models?: ModelCatalogue;
  /**
   * Declared tools past which MCP tools are deferred: found through `tool_search`, declared once
   * found or used (session/deferred-tools.ts). Absent: every tool is declared on every request.
   */
  deferToolsAbove?: number;
  /** `tools.profile`: `compact` declares fewer, shorter tools; absent = by the context window. */
  toolProfile?: 'full' | 'compact';
  history?: Content[];
  /** Loop detection thresholds (default: on). */
  loopDetection?: LoopDetectionOptions;
  /** Where prompts, model requests and tool calls are reported (default: nowhere). */
  telemetry?: Telemetry;
  /** Context files, already loaded; the session adds what tools discover. */
  memory?: ProjectMemory;
  /** Model to continue with when quota or overload errors persist (`model.fallback`). */
  fallbackModel?: string;
  /** Model round-trips allowed for one prompt (default 100). */
  maxTurnsPerPrompt?: number;
  /** Share of the context window at which history is compressed (`model.compressionThreshold`, 0.5). */
  compressionThreshold?: number;
  /** Cap on each tool output the model reads (default: 40,000 characters, nothing saved). */
  outputLimit?: OutputLimit;
  /** The session's hooks (settings `hooks`); none run when absent. */
  hooks?: HookSystem;
  /** Checkpoints before file-changing calls (`general.checkpointing`); none when absent. */
  checkpointing?: {
    store: CheckpointStore;
    shell?: boolean;
    onError?: (message: string) => void;
    /** Snapshot at each prompt start for `/rewind` (default true; headless has no use for it). */
    promptSnapshots?: boolean;
  };
  /** Confines shell commands (`tools.sandbox`, `-s`); they run as they are when absent. */
  sandbox?: CommandSandbox;
  /** Observes every turn boundary (the session log); nothing is recorded when absent. */
  recorder?: TurnRecorder;
  /** Counters and todo list of a resumed session (its history comes in `history`). */
  restored?: { stats?: SessionStatsSnapshot; todos?: TodoItem[] };
  /** Hard limits on cost, tokens, tool calls and time; checked between steps. */
  budgets?: BudgetLimits;
  /**
   * What `dispose()` does for a session a runtime issued, so the runtime's one teardown order is
   * the only one: the SDK's `createSession` passes its runtime's `close()`; a shared runtime
   * passes a refusal that points to `runtime.close()`. Absent (a session built by hand): dispose()
   * stops the session's background commands and telemetry.
   */
  disposeRun?: () => Promise<void>;
  /** Custom subagents for `invoke_agent`, after the built-ins (agent files, extensions). */
  agents?: readonly SubagentDefinition[];
  /** Limits for every subagent (settings `agents.maxTurns`, `maxTimeMinutes`, `maxDepth`). */
  agentLimits?: Partial<SubagentLimits>;
  /** Settings `agents.overrides`: agents turned off, or with their own model and limits. */
  agentOverrides?: Readonly<Record<string, SubagentOverride>>;
}

/** Model round trips allowed for one prompt unless configured. */
export const DEFAULT_MAX_TURNS_PER_PROMPT = 100;

/**
 * What a front end changed through the Session's API (the model, the history, added context).
 * Each change is recorded in the session log before listeners hear of it.
 */
export type SessionChange =
  | { type: 'model_changed'; from: string; to: string }
  /** The approval mode switched (keys, a tool such as exit_plan_mode, ACP, the SDK). */
  | { type: 'approval_mode_changed'; from: ApprovalMode; to: ApprovalMode; source: ApprovalModeSource }
  | { type: 'context_added'; parts: Part[] }
  | {
      type: 'history_replaced';
      /** `restore`/`rewind`: a checkpoint; `clear`: emptied; `compress`: summarised; `replace`: given. */
      reason: 'restore' | 'rewind' | 'clear' | 'compress' | 'replace';
      messages: number;
    };
