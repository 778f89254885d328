/**
 * The Tool contract. A tool is a plain object made by `defineTool`. Its zod schema validates the
 * model's arguments and generates the JSON Schema the model sees. Building a call validates the
 * arguments and yields an invocation that can describe itself, list the paths it touches, produce
 * confirmation details (diff or command preview) and execute.
 *
 * What the model reads (`llmContent`) and what the person sees (`returnDisplay`) are different
 * things. Bad arguments, missing files and thrown errors become error results the model can
 * correct; they never crash the loop. All I/O comes in through `ToolContext`, so tests pass a temp
 * workspace instead of mocking modules.
 */
import type { z } from 'zod';
import type { AgentEvent } from '../contracts/events';
import type {
  FreeformFormat,
  FunctionDeclaration,
  GenerateRequest,
  GenerateResponse,
} from '../contracts/messages';
import type {
  ConfirmationDetails,
  PlanReturnMode,
  ToolError,
  ToolKind,
  ToolResult,
} from '../contracts/tool-results';

export {
  type ConfirmationDetails,
  type FileDiff,
  type PlanReturnMode,
  READ_ONLY_KINDS,
  type ToolError,
  type ToolErrorType,
  type ToolKind,
  type ToolResult,
} from '../contracts/tool-results';

import type { FileFiltering } from './file-filtering';
import type { ShellServices } from './shell/background-jobs';
import type { PseudoTerminal } from './shell/pseudo-terminal';
import type { ExternalTerminals } from './shell/terminal';
import type { TextFileAccess } from './text-files';
import type { WebSearchBackend } from './web/search-api';
import type { Workspace } from './workspace';

export interface ExecuteOptions {
  signal: AbortSignal;
  /** The tool call being run (front ends that show a call's terminal need it). */
  callId?: string;
  /** Live output (e.g. shell stdout) for the UI; never sent to the model. */
  onOutput?: (chunk: string) => void;
  /** The events of a subagent this call runs, for front ends to show nested under the call. */
  onAgentEvent?: (nested: { agent: string; event: AgentEvent }) => void;
  /** The mode the person chose when approving a plan (`exit_plan_mode`). */
  approvedMode?: PlanReturnMode;
}

/** Starts subagents for `invoke_agent` (the session's `SubagentRunner`). */
export interface AgentInvoker {
  list(): readonly { name: string; description: string; source: string }[];
  invoke(
    request: { name: string; prompt: string },
    execution: { signal: AbortSignal; onEvent?: (event: AgentEvent) => void },
  ): Promise<ToolResult>;
}

/**
 * A one-shot model call for tools that need one (web_fetch, google_web_search, the edit fixer).
 * Provided by the session, bound to its current model and provider.
 */
export interface ToolModelClient {
  /** Provider name (`gemini`, `openai`, …), for tools that only work with some providers. */
  readonly provider: string;
  readonly model: string;
  generateContent(request: Omit<GenerateRequest, 'model'>, signal: AbortSignal): Promise<GenerateResponse>;
}

/** A todo item of `write_todos`. */
export interface TodoItem {
  description: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled' | 'blocked';
}

/**
 * What the session lends its tools: services that do something on the tool's behalf (files,
 * processes, model calls, questions to the person). Each tool declares the ones it uses
 * (`ToolDefinition.uses`) and sees only those.
 */
export interface ToolServices {
  workspace: Workspace;
  /** Model calls for tools that need them; absent when none is available (tests, some modes). */
  model?: ToolModelClient;
  /** The session's todo list (`write_todos` replaces it; front ends show it). */
  todos?: { get(): TodoItem[]; set(items: TodoItem[]): void };
  /** Subagents for `invoke_agent`; absent where delegation is not allowed (past the depth limit). */
  agents?: AgentInvoker | undefined;
  /** The session's background jobs and the output cap the shell applies while a command runs. */
  shell?: ShellServices;
  /** Runs foreground shell commands in a pseudo-terminal (the interactive UI); absent: pipes. */
  pseudoTerminal?: PseudoTerminal;
  /** The session's approval mode, for `enter_plan_mode` and `exit_plan_mode`. */
  approvalMode?: ApprovalModeAccess;
  /**
   * Puts `ask_user`'s questions to the person: the answers by question index, or undefined when
   * they dismissed the questions. Absent where nobody can answer (headless).
   */
  askUser?: (
    questions: readonly AskUserQuestion[],
    signal: AbortSignal,
  ) => Promise<Record<string, string> | undefined>;
  /** Where file tools read and write text; absent = the local disk (see text-files.ts). */
  textFiles?: TextFileAccess;
  /** A terminal outside kodo for foreground shell commands (an editor's); absent = local processes. */
  terminals?: ExternalTerminals;
  /** The search API of `web_search` (`tools.webSearch`), or why it cannot be used. */
  webSearch?: WebSearchBackend | { error: string };
}

/** Five minutes without output stops a shell command (Gemini CLI's default too). */
export const DEFAULT_SHELL_INACTIVITY_TIMEOUT_MS = 300_000;

/** Configuration: plain values the settings and the front end decide, read by the tools that use them. */
export interface ToolSettings {
  /** Environment for child processes, already stripped of secrets. */
  env: NodeJS.ProcessEnv;
  /** Default timeout for shell commands without output, in ms (runtimes pass DEFAULT_SHELL_INACTIVITY_TIMEOUT_MS). */
  shellInactivityTimeoutMs: number;
  /** Where `save_memory` appends facts: the global context file (`~/.kodo/KODO.md`). */
  memoryFilePath?: string;
  /** Let web_fetch reach private, loopback and link-local addresses (off by default). */
  allowPrivateNetworkFetch?: boolean;
  /** Which ignore files the file tools obey by default (`context.fileFiltering`). */
  fileFiltering?: Partial<FileFiltering>;
  /** `tools.useRipgrep`: false makes grep_search use git grep or its own scan. */
  useRipgrep?: boolean;
  /** Ask the model to repair a failed `replace` once (setting `tools.llmEditCorrection`). */
  llmEditCorrection?: boolean;
  /** Where plans are written in plan mode (`<project temp>/<session>/plans`). */
  plansDir?: string;
}

/**
 * Everything the session lends its tools: services and settings. The session builds one; each
 * built-in tool sees only the part it declares (`ToolContextFor`). Tests build one around a
 * temp directory.
 */
export interface ToolContext extends ToolServices, ToolSettings {}

/** One thing a tool may use from its context. */
export type ToolNeed = keyof ToolContext;

/** The part of the context a tool that declared `uses` sees. */
export type ToolContextFor<Uses extends ToolNeed> = Pick<ToolContext, Uses>;

/** One question of `ask_user`. */
export interface AskUserQuestion {
  question: string;
  /** A short label for the question. */
  header: string;
  type: 'choice' | 'text' | 'yesno';
  options?: { label: string; description: string }[];
  multiSelect?: boolean;
  placeholder?: string;
}

/** The approval modes, as the plan-mode tools switch between them. */
export type ToolApprovalMode = 'default' | 'auto_edit' | 'yolo' | 'plan';

export interface ApprovalModeAccess {
  get(): ToolApprovalMode;
  set(mode: ToolApprovalMode): void;
  /** The mode the session was in before it last entered plan mode (`default` if it started there). */
  beforePlan(): ToolApprovalMode;
}

export interface ToolDefinition<Schema extends z.ZodType, Uses extends ToolNeed = ToolNeed> {
  name: string;
  /**
   * What of the context the tool uses: it sees only these (`ToolContextFor`), so a file tool
   * cannot start processes and a search cannot ask the person. Absent = the whole context
   * (tools outside kodo's own, tests).
   */
  uses?: readonly Uses[];
  displayName: string;
  kind: ToolKind;
  description: string;
  parameters: Schema;
  /**
   * Set for a freeform tool: the model writes its input as text in this grammar, and the call's
   * arguments are `{input: string}` (so `parameters` must be that object). Only wire APIs that
   * can constrain output by a grammar are offered such a tool (see `FunctionDeclaration`).
   */
  freeform?: FreeformFormat;
  /**
   * Checks the schema cannot express (e.g. a path inside the workspace). Returns an error, or
   * undefined when the parameters are fine.
   */
  validate?(params: z.infer<Schema>, ctx: ToolContextFor<Uses>): ToolError | undefined;
  /** One line for the person, e.g. `src/app.ts` or the shell command. */
  describe(params: z.infer<Schema>, ctx: ToolContextFor<Uses>): string;
  /** Absolute paths the call reads or writes. */
  locations?(params: z.infer<Schema>, ctx: ToolContextFor<Uses>): string[];
  /** What to show when the call needs approval; without it a generic prompt is shown. */
  confirmationDetails?(
    params: z.infer<Schema>,
    ctx: ToolContextFor<Uses>,
    signal: AbortSignal,
  ): Promise<ConfirmationDetails | undefined>;
  execute(params: z.infer<Schema>, ctx: ToolContextFor<Uses>, options: ExecuteOptions): Promise<ToolResult>;
}

export interface ToolInvocation {
  readonly tool: Tool;
  readonly params: Record<string, unknown>;
  describe(): string;
  locations(): string[];
  confirmationDetails(signal: AbortSignal): Promise<ConfirmationDetails>;
  execute(options: ExecuteOptions): Promise<ToolResult>;
}

export type BuildResult = { ok: true; invocation: ToolInvocation } | { ok: false; error: ToolError };

/** What is known of a tool without loading its implementation. */
export interface ToolSpec {
  readonly name: string;
  readonly displayName: string;
  readonly kind: ToolKind;
  readonly description: string;
  /** The declaration sent to the model (JSON Schema generated from the zod schema, cached). */
  declaration(): FunctionDeclaration;
}

export interface Tool extends ToolSpec {
  /** What of the context the tool sees (`ToolDefinition.uses`); absent = all of it. */
  readonly uses?: readonly ToolNeed[];
  /** Validates raw model arguments and returns an invocation, or the validation error. */
  build(args: unknown, ctx: ToolContext): BuildResult;
}

/**
 * A tool whose implementation (and its dependencies: zod, glob and diff libraries…) loads on
 * first use. Its declaration is known up front, so the first model request does not wait for it.
 */
export interface LazyTool extends ToolSpec {
  load(): Promise<Tool>;
}
