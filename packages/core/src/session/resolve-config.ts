import { type BudgetLimits, parseDuration } from '../agent/budgets';
import type { RetryPolicy } from '../agent/retry';
import type { SubagentLimits, SubagentOverride } from '../agent/subagents';
import type { ProviderProfileSettings, Settings, ToolsSettings } from '../config/settings-types';
import { DEFAULT_CONTEXT_FILE_NAMES } from '../context/memory-files';
import type { Effort } from '../llm/effort';
import type { SamplingSettings } from '../llm/providers/registry';
import { DEFAULT_LOOP_DETECTION, type LoopDetectionOptions } from '../safety/loop-detection';
import type { ApprovalMode } from '../scheduler/policy/policy';
import type { FileFiltering } from '../tools/file-filtering';
import { DEFAULT_OUTPUT_THRESHOLD_CHARS } from '../tools/output-limit';
import { resolveWebSearchBackend, type WebSearchBackend } from '../tools/web/search-api';
import {
  type ApprovalLockdown,
  ApprovalModeError,
  type ApprovalModeSource,
  approvalLockdown,
  decideApprovalMode,
} from './approval-mode-gate';
import { DEFAULT_DEFER_TOOLS_ABOVE } from './deferred-tools';

/**
 * Flags, environment and checked settings → the narrow options each part of a session takes.
 * Pure: no I/O, no clock, nothing global, so precedence and defaults are tested without a CLI.
 * The settings have passed the schema check (config/settings-check.ts), so every present value
 * has its declared type; what is decided here is precedence, ranges and defaults.
 */

export const DEFAULT_MODEL = 'gemini-2.5-pro';

/** The flags that bear on configuration (the CLI's parsed arguments fit this shape). */
export interface ConfigArgs {
  model?: string | undefined;
  approvalMode?: ApprovalMode | undefined;
  /** From `--max-*`; each wins over its setting. */
  budgets?: BudgetLimits | undefined;
  /** `--effort`: wins over `model.effort` and every profile's. */
  effort?: Effort | undefined;
}

export interface ConfigContext {
  /**
   * An untrusted folder takes no approval mode from settings or flags: always `default` (a mode
   * the lock-down forbids is still refused).
   */
  trusted: boolean;
}

export interface ResolvedConfig {
  /** The model spec asked for (`-m`, `KODO_MODEL`, `GEMINI_MODEL`, `model.name`, the default). */
  model: string;
  providers?: Record<string, ProviderProfileSettings>;
  /** `model.temperature`, `model.topP`, `model.topK`, `model.maxOutputTokens`; absent = none set. */
  sampling?: SamplingSettings;
  /** `model.effort`; a profile's own wins over it. */
  effort?: Effort;
  /** `--effort`: wins over every profile's. */
  effortOverride?: Effort;
  memory: { fileNames: string[]; boundaryMarkers: string[] };
  /** `tools.exclude`, `tools.allowed`, `tools.core`: rules for the policy engine. */
  toolPolicy: Pick<ToolsSettings, 'exclude' | 'allowed' | 'core' | 'confirmationRequired'>;
  toolContext: {
    llmEditCorrection: boolean;
    allowPrivateNetworkFetch: boolean;
    fileFiltering: Partial<FileFiltering>;
    useRipgrep?: false;
    webSearch?: WebSearchBackend | { error: string };
  };
  /** Options of the Session itself (spread into SessionOptions). */
  session: {
    approvalMode: ApprovalMode;
    /** Who asked for `approvalMode`: a flag, or the settings' default. */
    approvalModeSource: ApprovalModeSource;
    approvalLockdown: ApprovalLockdown;
    maxSessionTurns: number;
    loopDetection: LoopDetectionOptions;
    compressionThreshold?: number;
    fallbackModel?: string;
    maxTurnsPerPrompt?: number;
    retry: Partial<RetryPolicy>;
    outputThresholdChars: number;
    /** `tools.profile`; absent = automatic (compact for a small discovered context window). */
    toolProfile?: 'full' | 'compact';
    /** `agents.maxDepth`, and `agents.maxTurns`/`maxTimeMinutes` as ceilings for every subagent. */
    agentLimits?: Partial<SubagentLimits>;
    /** `agents.overrides`, with minutes as milliseconds. */
    agentOverrides?: Record<string, SubagentOverride>;
    /** `tools.toolSearch`: declared tools past which MCP tools are deferred; absent = never. */
    deferToolsAbove?: number;
  };
  budgets: BudgetLimits;
  /** Absent when telemetry is off. */
  telemetry?: { logPrompts: boolean; outfile?: string; otlpEndpoint?: string };
  /** Absent when checkpointing is off. */
  checkpointing?: { shell: boolean };
  /** `tools.sandbox` as written (the flag and environment are weighed with it in safety/sandbox). */
  sandboxSetting?: ToolsSettings['sandbox'];
}

export function resolveConfig(
  args: ConfigArgs,
  env: NodeJS.ProcessEnv,
  settings: Settings,
  context: ConfigContext,
): ResolvedConfig {
  const model = settings.model ?? {};
  const tools = settings.tools ?? {};
  const checkpointing = settings.general?.checkpointing;
  const telemetry = telemetryConfig(env, settings);
  const sampling = samplingSettings(settings);
  return {
    model: args.model ?? env.KODO_MODEL ?? env.GEMINI_MODEL ?? model.name ?? DEFAULT_MODEL,
    ...(settings.providers ? { providers: settings.providers } : {}),
    ...(sampling ? { sampling } : {}),
    ...(model.effort ? { effort: model.effort } : {}),
    ...(args.effort ? { effortOverride: args.effort } : {}),
    memory: {
      fileNames: contextFileNames(settings),
      boundaryMarkers: settings.context?.memoryBoundaryMarkers ?? ['.git'],
    },
    toolPolicy: {
      ...(tools.exclude ? { exclude: tools.exclude } : {}),
      ...(tools.allowed ? { allowed: tools.allowed } : {}),
      ...(tools.core ? { core: tools.core } : {}),
      ...(tools.confirmationRequired ? { confirmationRequired: tools.confirmationRequired } : {}),
    },
    toolContext: {
      llmEditCorrection: tools.llmEditCorrection === true || tools.disableLLMCorrection === false,
      allowPrivateNetworkFetch: settings.webFetch?.allowPrivateAddresses === true,
      fileFiltering: fileFiltering(settings),
      ...(tools.useRipgrep === false ? { useRipgrep: false as const } : {}),
      ...webSearchOption(tools.webSearch, env),
    },
    session: {
      ...approvalModeOptions(args, settings, context),
      maxSessionTurns: model.maxSessionTurns ?? -1,
      loopDetection: loopDetection(settings),
      ...(model.compressionThreshold !== undefined
        ? { compressionThreshold: model.compressionThreshold }
        : {}),
      ...(model.fallback !== undefined ? { fallbackModel: model.fallback } : {}),
      ...(model.maxTurnsPerPrompt !== undefined ? { maxTurnsPerPrompt: model.maxTurnsPerPrompt } : {}),
      retry: retryOverrides(env, settings),
      outputThresholdChars: tools.truncateToolOutputThreshold ?? DEFAULT_OUTPUT_THRESHOLD_CHARS,
      ...(tools.profile ? { toolProfile: tools.profile } : {}),
      ...agentOptions(settings),
      ...(tools.toolSearch?.enabled === false
        ? {}
        : { deferToolsAbove: tools.toolSearch?.threshold ?? DEFAULT_DEFER_TOOLS_ABOVE }),
    },
    budgets: budgetLimits(args, settings),
    ...(telemetry ? { telemetry } : {}),
    ...(checkpointing?.enabled === true ? { checkpointing: { shell: checkpointing.shell === true } } : {}),
    ...(tools.sandbox !== undefined ? { sandboxSetting: tools.sandbox } : {}),
  };
}

/** The sampling settings that are set; undefined when none is, so nothing is sent. */
function samplingSettings(settings: Settings): SamplingSettings | undefined {
  const { temperature, topP, topK, maxOutputTokens } = settings.model ?? {};
  const sampling: SamplingSettings = {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(topK !== undefined ? { topK } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
  return Object.keys(sampling).length > 0 ? sampling : undefined;
}

/** `context.fileName` names come first; kodo's defaults stay in the list. */
function contextFileNames(settings: Settings): string[] {
  const configured = settings.context?.fileName;
  const extra = typeof configured === 'string' ? [configured] : (configured ?? []);
  return [...new Set([...extra.filter((name) => name !== ''), ...DEFAULT_CONTEXT_FILE_NAMES])];
}

/** `context.fileFiltering`: the ignore files the file tools obey. */
function fileFiltering(settings: Settings): Partial<FileFiltering> {
  const configured = settings.context?.fileFiltering ?? {};
  const custom = (configured.customIgnoreFilePaths ?? []).filter((path) => path !== '');
  return {
    ...(configured.respectGitIgnore !== undefined ? { respectGitIgnore: configured.respectGitIgnore } : {}),
    ...(configured.respectGeminiIgnore !== undefined
      ? { respectGeminiIgnore: configured.respectGeminiIgnore }
      : {}),
    ...(custom.length > 0 ? { customIgnoreFilePaths: custom } : {}),
  };
}

function loopDetection(settings: Settings): LoopDetectionOptions {
  const tuned = settings.model?.loopDetection ?? {};
  return {
    ...DEFAULT_LOOP_DETECTION,
    enabled: settings.model?.disableLoopDetection !== true,
    toolCallRepeats: tuned.toolCallRepeats ?? DEFAULT_LOOP_DETECTION.toolCallRepeats,
    contentRepeats: tuned.contentRepeats ?? DEFAULT_LOOP_DETECTION.contentRepeats,
    exemptTools: [...DEFAULT_LOOP_DETECTION.exemptTools, ...(tuned.exemptTools ?? [])],
  };
}

/**
 * The first approval mode: a flag, else the settings' default (yolo is never taken from settings:
 * the schema does not allow it), decided against the lock-down. A refused mode throws
 * ApprovalModeError: the front end stops with a configuration error rather than run in another
 * mode than the one asked for.
 */
function approvalModeOptions(
  args: ConfigArgs,
  settings: Settings,
  context: ConfigContext,
): Pick<ResolvedConfig['session'], 'approvalMode' | 'approvalModeSource' | 'approvalLockdown'> {
  const source: ApprovalModeSource = args.approvalMode !== undefined ? 'flag' : 'settings';
  const lockdown = approvalLockdown(settings);
  const decision = decideApprovalMode(
    { mode: args.approvalMode ?? settings.general?.defaultApprovalMode ?? 'default', source },
    { lockdown, trusted: context.trusted },
  );
  if (!decision.ok) throw new ApprovalModeError(decision.message);
  return { approvalMode: decision.mode, approvalModeSource: source, approvalLockdown: lockdown };
}

/** Settings `agents.*` as the Session's subagent options; absent when none is set. */
function agentOptions(settings: Settings): Pick<ResolvedConfig['session'], 'agentLimits' | 'agentOverrides'> {
  const agents = settings.agents ?? {};
  const limits: Partial<SubagentLimits> = {
    ...(agents.maxDepth !== undefined ? { maxDepth: agents.maxDepth } : {}),
    ...(agents.maxTurns !== undefined ? { maxTurnsCeiling: agents.maxTurns } : {}),
    ...(agents.maxTimeMinutes !== undefined ? { timeoutCeilingMs: agents.maxTimeMinutes * 60_000 } : {}),
  };
  const overrides = Object.entries(agents.overrides ?? {}).map(
    ([name, override]): [string, SubagentOverride] => [
      name,
      {
        ...(override.enabled !== undefined ? { enabled: override.enabled } : {}),
        ...(override.model !== undefined ? { model: override.model } : {}),
        ...(override.effort !== undefined ? { effort: override.effort } : {}),
        ...(override.maxTurns !== undefined ? { maxTurns: override.maxTurns } : {}),
        ...(override.maxTimeMinutes !== undefined ? { timeoutMs: override.maxTimeMinutes * 60_000 } : {}),
      },
    ],
  );
  return {
    ...(Object.keys(limits).length > 0 ? { agentLimits: limits } : {}),
    ...(overrides.length > 0 ? { agentOverrides: Object.fromEntries(overrides) } : {}),
  };
}

/**
 * `general.maxAttempts` bounds request retries (at most 10); `KODO_RETRY_BASE_MS` scales the
 * delays (tests and impatient gateways). Unset = defaults.
 */
function retryOverrides(env: NodeJS.ProcessEnv, settings: Settings): Partial<RetryPolicy> {
  const overrides: Partial<RetryPolicy> = {};
  const attempts = settings.general?.maxAttempts;
  if (attempts !== undefined) overrides.maxAttempts = Math.min(attempts, 10);
  const base = Number(env.KODO_RETRY_BASE_MS);
  if (env.KODO_RETRY_BASE_MS !== undefined && Number.isFinite(base) && base >= 0) {
    Object.assign(overrides, { initialDelayMs: base * 5, maxDelayMs: base * 30, streamInitialDelayMs: base });
  }
  return overrides;
}

/** Budgets from the `--max-*` flags, each winning over its `budgets.*` setting. */
function budgetLimits(args: ConfigArgs, settings: Settings): BudgetLimits {
  const configured = settings.budgets ?? {};
  const time = configured.maxTime;
  const fromSettings: BudgetLimits = {
    maxCostUsd: configured.maxBudgetUsd,
    maxTokens: configured.maxTokens,
    maxToolCalls: configured.maxToolCalls,
    maxTimeMs:
      typeof time === 'number' ? time * 1000 : typeof time === 'string' ? parseDuration(time) : undefined,
  };
  const merged = { ...fromSettings, ...args.budgets };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

/**
 * Telemetry, when `telemetry.enabled` (or `KODO_TELEMETRY_ENABLED=true`). A file target
 * (`telemetry.outfile`) wins over OTLP; the environment wins over settings.
 */
function telemetryConfig(env: NodeJS.ProcessEnv, settings: Settings): ResolvedConfig['telemetry'] {
  const config = settings.telemetry ?? {};
  const enabled =
    env.KODO_TELEMETRY_ENABLED !== undefined
      ? env.KODO_TELEMETRY_ENABLED === 'true'
      : config.enabled === true;
  if (!enabled) return undefined;
  const outfile = env.KODO_TELEMETRY_OUTFILE ?? config.outfile;
  const otlpEndpoint =
    env.KODO_TELEMETRY_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? config.otlpEndpoint;
  return {
    logPrompts: config.logPrompts === true,
    ...(outfile ? { outfile } : {}),
    ...(otlpEndpoint ? { otlpEndpoint } : {}),
  };
}

/** `tools.webSearch` with its key from the environment (absent when not configured). */
function webSearchOption(
  settings: ToolsSettings['webSearch'],
  env: NodeJS.ProcessEnv,
): { webSearch?: WebSearchBackend | { error: string } } {
  const backend = resolveWebSearchBackend(settings, env);
  return backend ? { webSearch: backend } : {};
}
