// The engine without the tool-authoring API: what front ends import on their hot path. It
// leaves out `defineTool` and the eagerly loaded built-ins, which pull in zod and the tools'
// libraries (esbuild keeps a re-exported module in the importer's chunk even when unused).
export { type ApiCallObserver, Chat, type ChatStreamEvent, classifyStream } from './agent/chat';
export { AgentClient } from './agent/client';
export type {
  AgentEvent,
  AgentEventType,
  CompressionStatus,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
  ToolCallStatus,
} from './agent/events';
export { DEFAULT_RETRY_POLICY, isRetryableError, type RetryPolicy } from './agent/retry';
export { Turn, type TurnOutcome } from './agent/turn';
export { geminiHome, kodoHome } from './config/paths';
export { projectId, projectTempDir } from './config/project';
export { type LoadedSettings, loadSettings, type Settings, SettingsError } from './config/settings';
export type { ContentGenerator, GeneratorMethod } from './llm/content-generator';
export {
  ApiError,
  AuthError,
  INVALID_STREAM_MESSAGES,
  InvalidStreamError,
  type InvalidStreamType,
} from './llm/errors';
export { FakeContentGenerator, parseRecordedCalls, type RecordedCall } from './llm/fake';
export { LoggingContentGenerator } from './llm/logging';
export { createGeminiGenerator, type GeminiTransport } from './llm/providers/gemini-factory';
export { RecordingContentGenerator } from './llm/recording';
export * from './llm/types';
export { environmentContext } from './prompts/environment';
export { buildSystemPrompt } from './prompts/system-prompt';
export { ApprovalModePolicy } from './scheduler/policy/approval-mode-policy';
export {
  APPROVAL_MODES,
  type ApprovalMode,
  type PolicyChecker,
  type PolicyDecision,
} from './scheduler/policy/policy';
export type { ConfirmationResponse } from './scheduler/scheduler';
export {
  type CompletedToolCall,
  type ConfirmationOutcome,
  type ConfirmationRequest,
  type ConfirmHandler,
  Scheduler,
} from './scheduler/scheduler';
export { Session, type SessionOptions, type SessionResult, type SessionStatus } from './session/session';
export { SessionStats, type SessionStatsSnapshot } from './session/stats';
export { lazyBuiltinTools } from './tools/builtin/lazy';
export { DEFAULT_OUTPUT_THRESHOLD_CHARS, type OutputLimit } from './tools/output-limit';
export { ToolRegistry } from './tools/registry';
export type {
  ConfirmationDetails,
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
export { Workspace } from './tools/workspace';
export { monotonicMs } from './utils/clock';
export { isSecretEnvName, sanitizeEnv } from './utils/env';
export { newSessionId } from './utils/ids';
