// The public API of @kodo/core: what a program needs to run kodo (docs/sdk.md). Everything else
// is internal; the CLI uses `@kodo/core/engine`, which is not a public API and may change.

export type { BudgetLimits } from './agent/budgets';
export type { LoopOutcome, LoopOutcomeKind } from './agent/loop';
export type { ModelFailure } from './agent/turn';
// Bring your own model: the provider interface and kodo's message model.
export type { ContentGenerator } from './contracts/content-generator';
export type {
  AgentEvent,
  AgentEventType,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
  ToolCallStatus,
} from './contracts/events';
export type { Content, GenerateRequest, GenerateResponse, Part } from './contracts/messages';
// What a typed line means (`!command`, `/command`, `@file`, `@agent`), as every kodo front end reads it.
export {
  type CommandListing,
  type FrontEnd,
  type InputSession,
  type InputSources,
  type LineInput,
  listCommands,
  type ResolvedInput,
  type ResolveOptions,
  resolveInput,
  runShellLine,
  type ShellLineResult,
} from './input/index';
export { FakeContentGenerator } from './llm/fake';
export type { RuntimeSession } from './runtime/options';
export type { Runtime } from './runtime/runtime';
export { RuntimeSetupError, type RuntimeSetupFailure } from './runtime/setup-error';
export type { ApprovalMode, PolicyChecker } from './scheduler/policy/policy';
export type {
  ConfirmationOutcome,
  ConfirmationRequest,
  ConfirmationResponse,
  ConfirmHandler,
} from './scheduler/scheduler';
// Run a session: create it, send prompts, read typed events and how each prompt ended.
export { type CreateSessionOptions, createSession, SessionSetupError } from './sdk/create-session';
// A runtime that hands out sessions: from the program's options alone (reads nothing), or with
// the user's settings, MCP servers and hooks.
export { createRuntimeFromOptions } from './sdk/options-runtime';
export { createRuntimeFromSettings, type RuntimeFromSettingsOptions } from './sdk/settings-runtime';
export type { ApprovalLockdown, ApprovalModeDecision } from './session/approval-mode-gate';
export { Session, type SessionChange } from './session/session';
export { builtinTools } from './tools/builtin/index';
// Bring your own tools.
export { defineTool } from './tools/define-tool';
export type { Tool, ToolContext, ToolDefinition, ToolResult } from './tools/tool';
export { Workspace } from './tools/workspace';
