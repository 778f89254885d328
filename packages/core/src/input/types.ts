/**
 * What the input pipeline takes and gives. It depends on interfaces only, so it does not care
 * how the session was assembled (a CLI front end, the SDK, a test).
 */
import type { CustomCommand } from '../commands/definition';
import type { AgentEvent } from '../contracts/events';
import type { Part } from '../contracts/messages';
import type { McpPromptMessage } from '../mcp/discovery';
import type { McpPromptCommand } from '../mcp/prompts';
import type { McpResourceSource } from '../mcp/resources';
import type { CompletedToolCall } from '../scheduler/scheduler';
import type { ToolCallRequester } from '../session/user-tool-call';
import type { SkillDefinition } from '../skills/definition';
import type { FileFiltering } from '../tools/file-filtering';
import type { Workspace } from '../tools/workspace';

/** The front ends a line can come from (`mcp_serve`: a task an MCP client gives `kodo mcp serve`). */
export type FrontEnd = 'terminal' | 'headless' | 'acp' | 'mcp_serve' | 'sdk';

/** What the pipeline needs of the session a line goes to (a `Session` is one). */
export interface InputSession {
  readonly model: string;
  readonly workspace: Workspace;
  readonly fileFiltering?: Partial<FileFiltering> | undefined;
  listAgents(): readonly { name: string }[];
  runUserToolCall(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    options?: { requestedBy?: ToolCallRequester },
  ): AsyncGenerator<AgentEvent, CompletedToolCall>;
}

/** The MCP side: server prompts (`/<prompt>`) and resources (`@<server>:<uri>`). */
export interface InputMcp extends McpResourceSource {
  promptCommands(): McpPromptCommand[];
  getPrompt(
    server: string,
    prompt: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpPromptMessage[]>;
}

/**
 * Where the names a line may use come from. Each is read per line, so a reload (`/commands
 * reload`, an MCP server that connected late) shows at once.
 */
export interface InputSources {
  /** Custom command files (Gemini CLI TOML, Claude Code Markdown, kodo's own). */
  commands?(): readonly CustomCommand[];
  /** Enabled skills (`/<skill>`). */
  skills?(): readonly SkillDefinition[];
  mcp?: InputMcp;
  /** The workspace's files, for `@directory` (see FileIndex). Without it a directory is listed on demand. */
  listFiles?(): Promise<string[]>;
}

/** A line, or an editor's content blocks already turned into parts (ACP, stream-json). */
export interface LineInput {
  text: string;
  /** Parts besides the text (images, embedded files); they follow the text. */
  parts?: Part[];
}

export interface ResolveOptions {
  frontEnd: FrontEnd;
  session: InputSession;
  sources: InputSources;
  signal: AbortSignal;
  /** Events of the tool calls a command's expansion makes (`!{…}`, `@{…}`, skill activation). */
  onEvent?: (event: AgentEvent) => void;
  /**
   * Names of the front end's own commands beyond the built-in table (the terminal's `/commands`,
   * `/skills`): they resolve as `session_command` too.
   */
  extraCommands?: readonly string[];
}

/** Where a prompt came from (what the line was). */
export type PromptSource = 'typed' | 'custom_command' | 'skill' | 'mcp_prompt';

/** What a line means: exactly one of these, whichever front end it came from. */
export type ResolvedInput =
  /** A built-in session command (see BUILTIN_COMMANDS): the front end runs it. */
  | { kind: 'session_command'; name: string; args: string }
  /** `!command`: a shell command the person runs; its output joins the next prompt's context. */
  | { kind: 'shell'; command: string }
  /** What goes to the model. */
  | {
      kind: 'prompt';
      /** What the session sends: a string when it is text only (the log keeps it as typed). */
      prompt: string | Part[];
      /** What the person typed, for the history, the title and the session log. */
      display: string;
      source: PromptSource;
      /** The subagent an `@agent` mention asked for. */
      agent?: string;
      /** Files, images and resources attached (`@path`, pasted image paths, `@server:uri`). */
      attached: string[];
      /** References that were not attached, and why (shown, not sent). */
      skipped: string[];
    }
  /** The line cannot run (an unknown command, bad arguments, a refused command step): nothing was sent. */
  | { kind: 'error'; message: string; unknownCommand?: string };
