/** What a front end gives createRuntime, and what the runtime holds once assembled. */
import type { Settings, SettingsScope } from '../config/settings';
import type { ProjectMemory } from '../context/memory-files';
import type { HookConfig } from '../hooks/config';
import type { HookSystem } from '../hooks/hook-system';
import type { HookFeedback } from '../hooks/types';
import type { McpManager } from '../mcp/index';
import type { CommandSandbox } from '../safety/sandbox/index';
import type { PolicyEngine } from '../scheduler/policy/engine';
import type { Approvals } from '../scheduler/scheduler';
import type { SessionRecorder } from '../session/recorder';
import type { LoadedSession } from '../session/resume';
import type { Session, SessionOptions } from '../session/session';
import type { Telemetry } from '../telemetry/telemetry';
import type { ToolRegistry } from '../tools/registry';
import type { BackgroundJobs } from '../tools/shell/background-jobs';
import type { PseudoTerminal } from '../tools/shell/pseudo-terminal';
import type { ExternalTerminals } from '../tools/shell/terminal';
import type { TextFileAccess } from '../tools/text-files';
import type { ToolContext } from '../tools/tool';
import type { RuntimeExtensibility } from './extensibility';
import type { RuntimeFlags } from './flags';
import type { BuiltGenerator } from './generator';

export interface RuntimeOptions {
  /** Command-line choices (the CLI's parsed arguments); none for the SDK. */
  flags?: RuntimeFlags;
  settings: Settings;
  /** The settings files by scope (`loadSettings().scopes`), so project hooks can be told apart. */
  settingsScopes?: SettingsScope[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Whether the folder is trusted, decided by the front end (its trust gate, the SDK's caller).
   * An untrusted folder gets no context files, policies, hooks, stdio MCP servers or approval mode of its own.
   */
  trusted: boolean;
  /** The first session's id: it names the `--debug` log, the plans folder and telemetry's session. Default: a new one. */
  sessionId?: string;
  /**
   * Who answers approval questions, stated by the front end: the UI's dialog, the editor's
   * permission request (ACP), an MCP client's elicitation, or nobody (headless).
   */
  approvals: Approvals;
  /** `false`: custom slash commands are not loaded (a headless run whose prompt is not one). Default true. */
  customCommands?: boolean;
  /** Puts `ask_user`'s questions to the person (the interactive UI); headless passes none. */
  askUser?: ToolContext['askUser'];
  /** Policy file errors and warnings, one line each (default: stderr). */
  onPolicyFeedback?: (message: string) => void;
  /** Whether hooks from the project's settings may run (default: whether the folder is trusted). */
  allowProjectHooks?: boolean;
  /** Hook messages and failures (default: stderr, as `[INFO] …` / `[WARNING] …`). */
  onHookFeedback?: (feedback: HookFeedback) => void;
  /** Session log problems: a skipped torn record, a failed write (default: stderr `[WARNING] …`). */
  onSessionWarning?: (message: string) => void;
  /**
   * MCP servers: `wait` returns once each has connected or failed within its timeout (the first
   * request declares every tool); `background` (the default) returns at once.
   */
  mcpDiscovery?: 'wait' | 'background';
  /**
   * MCP servers that failed or went away, budgets that cannot be enforced. Default: stderr
   * `[WARNING] …` when nobody answers approvals (headless); nothing for an interactive front end,
   * which subscribes to `Runtime.mcp` instead.
   */
  onWarning?: (message: string) => void;
  /** Where file tools read and write text (an editor's buffers over ACP); default: the disk. */
  textFiles?: TextFileAccess;
  /** A model backend of the caller's in place of the provider's (a tools-only session needs no key). */
  generator?: (model: string) => BuiltGenerator;
  /** Where foreground shell commands run (an editor's terminal over ACP); default: local processes. */
  terminals?: ExternalTerminals;
  /** Runs foreground shell commands in a pseudo-terminal (the interactive UI); default: pipes. */
  pseudoTerminal?: PseudoTerminal;
  /** Who kodo says it is to MCP servers. */
  clientInfo?: { name: string; version: string };
  /** The build's key for the parse cache of skill and agent files (a new build parses again). */
  buildKey?: string;
}

/** A session the runtime handed out, with what its front end shows at the start. */
export interface RuntimeSession {
  session: Session;
  /** Writes the session log (`~/.kodo/sessions/<project>/`); absent when the runtime keeps none. */
  recorder?: SessionRecorder;
  /** The recorded session this one continues, when resuming (its messages, for replaying). */
  resumed?: LoadedSession;
}

/**
 * What createRuntime (or the SDK's preset that reads nothing, sdk/options-runtime.ts) assembled;
 * the Runtime holds it.
 */
export interface RuntimeParts {
  options: RuntimeOptions;
  model: string;
  generator: BuiltGenerator;
  tools: ToolRegistry;
  /** The policy files' engine; absent when none was read (the caller's rules are in `sessionOptions`). */
  policy?: PolicyEngine;
  /** The context files, loaded once; absent when none are read. */
  memory?: ProjectMemory;
  tempDir: string;
  plansDir: string;
  jobs: BackgroundJobs;
  /**
   * `store`: each session records its log in `~/.kodo/sessions/<project>/` and can be resumed;
   * `none`: sessions keep no log (the SDK's preset that reads nothing).
   */
  sessionLogs: 'store' | 'none';
  sandbox?: CommandSandbox;
  hookSandbox?: CommandSandbox;
  hooks?: { config: HookConfig; HookSystem: typeof HookSystem };
  telemetry?: Telemetry;
  extensibility?: RuntimeExtensibility;
  /**
   * Everything a Session is built with but its id, record, hooks and history, and who answers
   * approvals (`options.approvals`, the front end's statement, is the one source).
   */
  sessionOptions: Omit<
    SessionOptions,
    'sessionId' | 'recorder' | 'hooks' | 'history' | 'restored' | 'approvals'
  >;
  /** Set once the servers are started (they read the model of the session in use). */
  mcp?: McpManager;
}

/** The default for warnings nobody else takes: stderr, as the CLI prints them. */
export const stderrWarning = (message: string) => process.stderr.write(`[WARNING] ${message}\n`);
