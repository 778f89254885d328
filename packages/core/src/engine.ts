// The engine without the tool-authoring API: what front ends import on their hot path. It
// leaves out `defineTool` and the eagerly loaded built-ins, which pull in zod and the tools'
// libraries (esbuild keeps a re-exported module in the importer's chunk even when unused).

export { routeAgentMention } from './agent/agent-mention';
export {
  type BudgetExceeded,
  type BudgetKind,
  type BudgetLimits,
  BudgetTracker,
  type BudgetUsage,
  parseDuration,
  unpricedModelRefusal,
} from './agent/budgets';
export { type ApiCallObserver, Chat, type ChatStreamEvent, classifyStream } from './agent/chat';
export type { LoopOutcome, LoopOutcomeKind } from './agent/loop';
export { DEFAULT_RETRY_POLICY, isRetryableError, type RetryPolicy } from './agent/retry';
export { BUILTIN_SUBAGENTS, type SubagentDefinition, type SubagentLimits } from './agent/subagents';
export type { ModelFailure } from './agent/turn';
export { qualifiedCommandName } from './commands/definition';
export {
  DEFAULT_EXCLUDED_ENV_VARS,
  type EnvFileResult,
  loadEnvFile,
  UNTRUSTED_ENV_ALLOWLIST,
} from './config/env-file';
export { geminiHome, kodoHome, userHome } from './config/paths';
export { projectId, projectTempDir } from './config/project';
export {
  type LoadedSettings,
  loadSettings,
  type Settings,
  SettingsError,
  type SettingsScope,
} from './config/settings';
export type { ToolsSettings } from './config/settings-types';
export { ChatCompressor, type CompressionResult } from './context/compression';
export { DEFAULT_CONTEXT_FILE_NAMES, findProjectRoot, ProjectMemory } from './context/memory-files';
export {
  MEMORY_PROPOSAL_PROMPT,
  MemoryInbox,
  type ProposedMemory,
  proposeMemories,
} from './context/memory-inbox';
export type { ContentGenerator, GeneratorMethod } from './contracts/content-generator';
export {
  ApiError,
  AuthError,
  INVALID_STREAM_MESSAGES,
  InvalidStreamError,
  type InvalidStreamType,
} from './contracts/errors';
export type {
  AgentEvent,
  AgentEventType,
  CompressionStatus,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
  ToolCallStatus,
} from './contracts/events';
export * from './contracts/messages';
export type {
  AgentDefinition,
  CustomCommand,
  Extensibility,
  Extension,
  ExtensionSettingDecl,
  SkillDefinition,
  TemplateServices,
  TemplateShellResult,
} from './extensions/index';
export { hasExtensibilityFiles, hasProjectAgentFolders } from './extensions/presence';
export {
  type HookConfig,
  type HookSettingsSource,
  hookConfigFromSources,
  hookLabel,
  isHookDisabled,
} from './hooks/config';
export type { HookSystem, HookSystemOptions } from './hooks/hook-system';
export {
  HOOK_EVENTS,
  type HookEventName,
  type HookFeedback,
  type HookRegistration,
  type HooksConfigSettings,
  type HooksSettings,
  hookContextBlock,
  type SessionEndReason,
  type SessionStartSource,
} from './hooks/types';
export * from './input/index';
export { catalogueEntries } from './llm/catalogue';
export { CATALOGUE_SOURCE, CATALOGUE_UPDATED } from './llm/catalogue.generated';
export type { ContextWindowSource } from './llm/context-windows';
export { EFFORTS, type Effort, isEffort } from './llm/effort';
// The replay, recording and debug-log generators load with `loadReplayGenerators()`.
export type { FakeContentGenerator, RecordedCall } from './llm/fake';
export {
  acceptsImages,
  BUILTIN_CATALOGUE,
  type CatalogueProvider,
  contextWindowOf,
  contextWindowOrDefault,
  costOf,
  type ModelCatalogue,
  type ModelInfo,
  type ModelPrice,
  modelInfo,
  priceOf,
  type TokenCounts,
} from './llm/models';
export { type GeminiClientOptions, GeminiContentGenerator } from './llm/providers/gemini';
export { catalogueWithOverrides } from './llm/providers/model-catalogue';
export {
  BUILTIN_PROVIDERS,
  defaultProviderRegistry,
  missingKeyMessage,
  ProviderConfigError,
  type ProviderConnection,
  type ProviderProfileSettings,
  ProviderRegistry,
  ProviderResolver,
  type ProviderType,
  type ResolvedModel,
  type SamplingSettings,
  UnknownProviderError,
} from './llm/providers/registry';
export { ProviderRouter } from './llm/providers/router';
export { DEFAULT_TRANSPORT_TIMEOUTS, type TransportTimeouts } from './llm/providers/transport-limits';
export type { RecordingContentGenerator } from './llm/recording';
export { gateMcpServers, hasMcpServers, type McpServerHold } from './mcp/config-check';
export type {
  McpManager,
  McpManagerEvent,
  McpPromptCommand,
  McpServerSettings,
  McpServerState,
  McpServerStatus,
} from './mcp/index';
// Other tools' sessions load with `loadForeignSessions()`: only listing and resuming read them.
export {
  type Checkpointing,
  type DoctorModule,
  type ExtensionsModule,
  type ExtensionsStartupModule,
  type FileTextModule,
  type ForeignSessions,
  type HookSystemModule,
  loadCheckpointing,
  loadDoctorModule,
  loadExtensionsModule,
  loadExtensionsStartupModule,
  loadFileText,
  loadForeignSessions,
  loadHookSystem,
  loadMcpModule,
  loadReplayGenerators,
  type McpModule,
  type ReplayGenerators,
} from './on-demand';
export { environmentContext } from './prompts/environment';
export { buildSystemPrompt } from './prompts/system-prompt';
export { checkEnforcedAuth, currentAuthType, providerTypeOf } from './runtime/auth';
export { createRuntime } from './runtime/create-runtime';
export {
  loadRuntimeExtensibility,
  type RuntimeExtensibility,
  skillSettings,
  subagentsFrom,
} from './runtime/extensibility';
export type { RuntimeFlags } from './runtime/flags';
export {
  type BuiltGenerator,
  buildGenerator,
  type GeneratorChoice,
  modelTimeouts,
} from './runtime/generator';
export type { RuntimeOptions, RuntimeSession } from './runtime/options';
export { Runtime } from './runtime/runtime';
export { RuntimeSetupError, type RuntimeSetupFailure } from './runtime/setup-error';
// The store itself loads with `loadCheckpointing()`: a value export here would put it (and its
// git plumbing) on every run's way to the first request.
export type {
  CheckpointInfo,
  CheckpointStore,
  CheckpointToolCall,
  FilesRestoreResult,
} from './safety/checkpoints';
export type {
  PromptSummary,
  RestoreOptions,
  RestoreResult,
  RewindMode,
  RewindResult,
  SessionCheckpoints,
} from './safety/checkpoints/session-checkpoints';
export { DEFAULT_LOOP_DETECTION, type LoopDetectionOptions, LoopDetector } from './safety/loop-detection';
export {
  BWRAP_MISSING_MESSAGE,
  type CommandSandbox,
  createSandbox,
  findOnPath,
  probeBwrap,
  resolveSandboxChoice,
  type SandboxChoice,
  SandboxError,
  type SandboxSetup,
  type SandboxStatus,
} from './safety/sandbox/index';
export {
  checkFolderTrust,
  type FolderTrust,
  TRUST_LEVELS,
  TrustFileError,
  type TrustLevel,
  type TrustRule,
  type TrustSource,
  TrustStore,
  trustFilePath,
  UNTRUSTED_HEADLESS_MESSAGE,
} from './safety/trust';
export {
  CHANGED_SINCE_TRUSTED_MESSAGE,
  changedSinceTrusted,
  fingerprintFilePath,
  fingerprintMatches,
  projectFingerprint,
  TrustFingerprints,
  unverifiableReason,
  unverifiableTrustMessage,
} from './safety/trust-fingerprint';
export { ApprovalModePolicy } from './scheduler/policy/approval-mode-policy';
export { PolicyEngine, type PolicyEngineOptions } from './scheduler/policy/engine';
export {
  APPROVAL_MODES,
  type ApprovalMode,
  type PolicyChecker,
  type PolicyCheckInput,
  type PolicyCheckResult,
  type PolicyContext,
  type PolicyDecision,
  type PolicyToolInfo,
} from './scheduler/policy/policy';
export type { PolicyRule, PolicyTier } from './scheduler/policy/rule';
export {
  autoSavedPolicyPath,
  loadPolicyEngine,
  namedPolicyPaths,
  PolicyLoadError,
  type PolicySetup,
  type PolicyToolSettings,
  settingsRules,
  userPolicyDir,
} from './scheduler/policy/sources';
export type { ConfirmationResponse } from './scheduler/scheduler';
export {
  type Approvals,
  type CompletedToolCall,
  type ConfirmationOutcome,
  type ConfirmationRequest,
  type ConfirmHandler,
  Scheduler,
} from './scheduler/scheduler';
export {
  type ApprovalLockdown,
  type ApprovalModeDecision,
  ApprovalModeError,
  type ApprovalModeSource,
  approvalLockdown,
  decideApprovalMode,
} from './session/approval-mode-gate';
export { type ChatCheckpoint, type ChatCheckpointInfo, ChatCheckpoints } from './session/checkpoints';
export type { ContextBreakdown, ContextSource } from './session/context-breakdown';
export type { ImportResult, ListedSession, SessionListing } from './session/foreign/foreign-sessions';
export type { ForeignOrigin, ForeignSessionSummary, SkippedSession } from './session/foreign/types';
export { repairHistory } from './session/history-repair';
export { SessionRecorder, type TurnBoundary, type TurnRecorder } from './session/recorder';
export { type MessageRecord, SESSION_ID_PATTERN, type SessionMetadata } from './session/records';
export {
  type ConfigArgs,
  DEFAULT_MODEL,
  type ResolvedConfig,
  resolveConfig,
} from './session/resolve-config';
export type { LoadedSession, LoadSessionOptions } from './session/resume';
export { Session, type SessionChange, type SessionOptions } from './session/session';
export { formatSessionList, relativeTime, type SessionSummary, sessionsDir } from './session/session-files';
export { SessionStats, type SessionStatsSnapshot, type StatsTotals } from './session/stats';
export { InvalidSessionError, SessionStore } from './session/store';
export { createTelemetry, NO_TELEMETRY, type Telemetry, type TelemetryOptions } from './telemetry/telemetry';
export { lazyBuiltinTools } from './tools/builtin/declared';
export { DEFAULT_FILE_FILTERING, type FileFiltering } from './tools/file-filtering';
// Line endings kept in an editor's writes (ACP): `loadFileText()`, so the diff library stays off
// the way to the first request.
export type { ExistingText } from './tools/file-text';
export { cleanupInterruptedWrites } from './tools/interrupted-writes';
export { DEFAULT_OUTPUT_THRESHOLD_CHARS, type OutputLimit } from './tools/output-limit';
export { ToolRegistry } from './tools/registry';
export { closeLaunchFds, type Launch } from './tools/shell/launch';
export { groupMembers, terminateGroup } from './tools/shell/process-group';
export type { PseudoTerminal, PseudoTerminalRun } from './tools/shell/pseudo-terminal';
export type { OutputSink, RunCommandResult } from './tools/shell/run-command';
export type {
  ExternalTerminal,
  ExternalTerminals,
  TerminalCommand,
  TerminalExit,
} from './tools/shell/terminal';
export type { TextFileAccess, TextFileFormat } from './tools/text-files';
export type {
  AskUserQuestion,
  ConfirmationDetails,
  FileDiff,
  LazyTool,
  TodoItem,
  Tool,
  ToolContext,
  ToolError,
  ToolErrorType,
  ToolKind,
  ToolModelClient,
  ToolResult,
  ToolSpec,
} from './tools/tool';
export { hasNativeWebSearch } from './tools/web/search-api';
export { isInside, Workspace } from './tools/workspace';
export { monotonicMs } from './utils/clock';
export { isSecretEnvName, sanitizeEnv } from './utils/env';
export { newSessionId } from './utils/ids';
export { isRecord } from './utils/is-record';
export { kindOf } from './utils/json-kind';
export { jsonErrorDetail, locateJsonError } from './utils/json-location';
export { parseJsonc } from './utils/jsonc';
export { splitOutsideParens } from './utils/split-list';
export { AnsiStripper, stripEscapeSequences, stripTerminalControls } from './utils/terminal-text';
