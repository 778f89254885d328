/**
 * The shapes of the settings files kodo reads (Gemini CLI's keys and kodo's own), as types only.
 * This file imports nothing: it is part of core's contracts, shared by the settings reader, the
 * schema that checks files (settings-schema.ts) and the parts that take settings-derived options.
 *
 * Every key is optional. A loaded `Settings` has passed the schema check: a value of the wrong
 * type was reported and removed, so a present value has the type written here. Keys that kodo
 * does not know stay in the object and are ignored.
 */

export interface Settings {
  model?: ModelSettings;
  general?: GeneralSettings;
  /** Read from the user's settings only for folder trust: a folder cannot vouch for itself. */
  security?: SecuritySettings;
  /** Gemini CLI's administrator controls; checked as strictly as `security`. */
  admin?: AdminSettings;
  output?: { format?: 'text' | 'json' | 'stream-json' };
  ui?: UiSettings;
  /** Claude Code's place for the status line; `ui.statusLine` is read too. */
  statusLine?: StatusLineSettings;
  /** Gemini CLI's first place for custom themes (now `ui.customThemes`). */
  customThemes?: Record<string, Record<string, unknown>>;
  telemetry?: TelemetrySettings;
  context?: ContextSettings;
  tools?: ToolsSettings;
  /** Let web_fetch reach private, loopback and link-local addresses (default off). */
  webFetch?: { allowPrivateAddresses?: boolean };
  /** `.env` loading (which variables a project `.env` may not set; whether to read it at all). */
  advanced?: { excludedEnvVars?: string[]; ignoreLocalEnv?: boolean };
  /** Model provider profiles, used as `-m <name>:<model>` (see llm/providers/registry.ts). */
  providers?: Record<string, ProviderProfileSettings>;
  /** Hook definitions per event; the arrays of the user and project scopes are concatenated. */
  hooks?: HooksSettings;
  /** `disabled` is the union of the scopes' lists. */
  hooksConfig?: HooksConfigSettings;
  /** MCP servers by name; a project entry replaces a user entry of the same name whole. */
  mcpServers?: Record<string, McpServerSettings>;
  /** `allowed` / `excluded` server names. */
  mcp?: McpGlobalSettings;
  /** Hard limits for a session (the `--max-*` flags win); see session/budgets.ts. */
  budgets?: BudgetSettings;
  skills?: { /** Skill names that are not loaded (a union across scopes). */ disabled?: string[] };
  /**
   * `inbox`: auto-memory, the end-of-session proposal of durable facts to the inbox (`/memory
   * inbox`). Unset: on in interactive sessions, off headless; true or false: so for both.
   */
  memory?: { inbox?: boolean };
  agents?: AgentsSettings;
  /** Policy files or directories for the user tier (like `--policy`). */
  policyPaths?: string[];
  /** Policy files or directories for the admin tier (like `--admin-policy`). */
  adminPolicyPaths?: string[];
}

export interface ModelSettings {
  name?: string;
  /** -1 (the default) = unlimited. */
  maxSessionTurns?: number;
  disableLoopDetection?: boolean;
  /** Fraction of the context window (0 < x ≤ 1) at which history is compressed. */
  compressionThreshold?: number;
  /** The model to switch to when the main one keeps failing. */
  fallback?: string;
  maxTurnsPerPrompt?: number;
  loopDetection?: { toolCallRepeats?: number; contentRepeats?: number; exemptTools?: string[] };
  /** Milliseconds a model request may take in all; 0 = no limit. */
  requestTimeoutMs?: number;
  /** Milliseconds a response stream may stay silent; 0 = no limit. */
  streamIdleTimeoutMs?: number;
  /** Sampling sent on every request to providers that accept it; unset = the server's default. */
  temperature?: number;
  topP?: number;
  /** Sent to Gemini, Anthropic and OpenAI-compatible servers other than OpenAI's own API. */
  topK?: number;
  maxOutputTokens?: number;
  /**
   * How hard the model thinks: `off`, `low`, `medium`, `high`, `max` (docs/providers.md has what
   * each family gets). Unset = what the vendor's own agent uses. `--effort` and `/effort` win.
   */
  effort?: SettingsEffort;
}

export type SettingsEffort = 'off' | 'low' | 'medium' | 'high' | 'max';

export type SettingsApprovalMode = 'default' | 'auto_edit' | 'plan';

export interface GeneralSettings {
  /** yolo is never taken from settings: only an explicit flag turns it on. */
  defaultApprovalMode?: SettingsApprovalMode;
  /** Request attempts, 1–10 (larger values count as 10). */
  maxAttempts?: number;
  /** Snapshots before file-changing tool calls (`/restore`, `/rewind`); `shell` adds shell commands. */
  checkpointing?: { enabled?: boolean; shell?: boolean };
  /** Vim keybindings in the interactive input (`/vim` toggles and saves it). */
  vimMode?: boolean;
}

export interface SecuritySettings {
  folderTrust?: {
    enabled?: boolean;
    /** `restricted`: a headless run in an untrusted folder runs restricted instead of exiting 55. */
    untrustedHeadless?: 'restricted' | 'exit';
  };
  disableYoloMode?: boolean;
  disableAlwaysAllow?: boolean;
  /** Offer "allow for all future sessions" (saved to a policy file) in the approval dialog. */
  enablePermanentToolApproval?: boolean;
  toolSandboxing?: boolean;
  auth?: { selectedType?: string; enforcedType?: string; useExternal?: boolean };
}

export interface AdminSettings {
  secureModeEnabled?: boolean;
  extensions?: { enabled?: boolean };
  mcp?: { enabled?: boolean };
  skills?: { enabled?: boolean };
}

/** A status line whose text a command prints (Claude Code's `statusLine`). */
export interface StatusLineSettings {
  type?: 'command';
  command?: string;
  padding?: number;
}

export interface UiSettings {
  theme?: string;
  /** Gemini CLI custom themes by name (docs/habits.md). */
  customThemes?: Record<string, Record<string, unknown>>;
  statusLine?: StatusLineSettings;
  hideBanner?: boolean;
  hideTips?: boolean;
  hideFooter?: boolean;
  /**
   * Terminal bell and OSC 9 desktop notification when a turn longer than `longTurnSeconds`
   * (default 10) ends or a tool needs approval while the terminal is not focused (default on).
   */
  notifications?: { enabled?: boolean; longTurnSeconds?: number };
}

export interface TelemetrySettings {
  enabled?: boolean;
  target?: 'local' | 'gcp';
  outfile?: string;
  otlpEndpoint?: string;
  otlpProtocol?: 'grpc' | 'http';
  logPrompts?: boolean;
}

export interface ContextSettings {
  fileName?: string | string[];
  /** Extra workspace roots, as `--include-directories` adds them (relative to the project). */
  includeDirectories?: string[];
  memoryBoundaryMarkers?: string[];
  fileFiltering?: {
    respectGitIgnore?: boolean;
    respectGeminiIgnore?: boolean;
    customIgnoreFilePaths?: string[];
  };
}

export interface WebSearchSettings {
  provider?: 'brave' | 'tavily' | 'searxng';
  /** The API's address: a SearXNG instance, or another endpoint for Brave or Tavily (a proxy). */
  baseUrl?: string;
  /** The variable holding the API key (default BRAVE_API_KEY, TAVILY_API_KEY). */
  apiKeyEnv?: string;
  /** Results per search (1–20, default 5). */
  maxResults?: number;
}

export interface ToolsSettings {
  truncateToolOutputThreshold?: number;
  /** false: grep_search uses git grep or its own scan instead of ripgrep. */
  useRipgrep?: boolean;
  /** Tools to refuse (`run_shell_command(rm)` refuses that command prefix). */
  exclude?: string[];
  /** Tools to run without asking (`run_shell_command(git)` allows that command prefix). */
  allowed?: string[];
  /** The only tools available; every other tool is refused (outside plan mode). */
  core?: string[];
  /** Tools that always ask first, in every approval mode (headless: each call fails). */
  confirmationRequired?: string[];
  /** The search API behind `web_search` (see docs/web-search.md). */
  webSearch?: WebSearchSettings;
  /** Sandbox for shell commands: on/off, `bwrap`/`sandbox-exec`, or the object form. */
  sandbox?: boolean | string | SandboxSettings;
  /** Ask the model once to repair a `replace` that matched nothing (default off). */
  llmEditCorrection?: boolean;
  /** Gemini CLI's inverse spelling of the same switch (default true = off). */
  disableLLMCorrection?: boolean;
  /** Which tool declarations the model gets: every tool, or a smaller set for small models. */
  profile?: 'full' | 'compact';
  /**
   * Deferred tools: past `threshold` declared tools (default 40), MCP tools are found through
   * `tool_search` instead of being declared on every request; `enabled: false` declares all.
   */
  toolSearch?: { enabled?: boolean; threshold?: number };
}

export interface SandboxSettings {
  /** true: required; false: off; absent: automatic (Linux). */
  enabled?: boolean;
  command?: string;
  /** Extra writable paths (absolute, `~/…`, or relative to the workspace). */
  allowedPaths?: string[];
  /** Let sandboxed commands use the network (default false). */
  networkAccess?: boolean;
  /**
   * Run hook commands in the sandbox too. Default: when the sandbox was asked for (`-s`,
   * `KODO_SANDBOX`, `tools.sandbox`), not with the automatic one, so hooks written for Gemini CLI
   * (which runs them unconfined) keep their network and home directory.
   */
  hooks?: boolean;
  /** Extra paths to hide, besides kodo's and Gemini CLI's homes and the credential list. */
  hiddenPaths?: string[];
  /** Entries of the default credential list to show (read-only), e.g. `~/.npmrc`. */
  visiblePaths?: string[];
  /**
   * Unix sockets commands may connect to, e.g. `/run/docker.sock`. Listing any turns off the
   * filter that refuses every unix socket (it cannot tell paths apart); the socket directories
   * stay hidden except the listed sockets.
   */
  allowUnixSockets?: string[];
  /** Keep the workspace's control files (.git/hooks, .git/config, .kodo/, …) read-only (default true). */
  protectControlFiles?: boolean;
  /** Without a sandbox, still run each command in its own PID namespace (default true). */
  pidNamespace?: boolean;
}

/** A `providers.<name>` entry of settings. */
export interface ProviderProfileSettings {
  type?: string;
  baseUrl?: string;
  /** Environment variable holding the key. Without one, no key is sent (local servers). */
  apiKeyEnv?: string;
  /** Models this provider serves; the first is its default, and listed ids resolve to it. */
  models?: string[];
  /**
   * OpenAI-compatible profiles only: `"required"` sends `tool_choice: "required"` on the request
   * that answers each user message, so the model must start with a tool call (docs/providers.md).
   */
  toolChoice?: string;
  /**
   * Tokens of prompt plus answer the server gives a request, for servers that do not say
   * (kodo asks Ollama, llama.cpp and vLLM itself; docs/providers.md). Wins over what they say.
   */
  contextWindow?: number;
  /** Sampling for this provider's requests; each wins over the `model.*` setting of that name. */
  temperature?: number;
  topP?: number;
  topK?: number;
  /** This provider's effort; wins over `model.effort`, `--effort` wins over it. */
  effort?: SettingsEffort;
  /** `type: "openai"` only: `responses` or `chat`; unset = by the server and model (docs/providers.md). */
  wireApi?: string;
  /**
   * Extra HTTP headers on every request to this provider (a gateway's routing or tenant header).
   * The values are secrets to kodo: sent, never logged or recorded.
   */
  headers?: Record<string, string>;
  /**
   * Per model id: windows, output limits, prices and capabilities that win over kodo's catalogue
   * (models.dev), or describe a model it does not list (`kodo models` shows them).
   */
  modelOverrides?: Record<string, ModelOverrideSettings>;
}

/** A `providers.<name>.modelOverrides.<model>` entry; each field wins over the catalogue's. */
export interface ModelOverrideSettings {
  contextWindow?: number;
  maxOutputTokens?: number;
  /** US dollars per million tokens; unset fields keep the catalogue's. */
  price?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  reasoning?: boolean;
  images?: boolean;
  tools?: boolean;
}

/** Gemini CLI's hook event names (the runtime list is `HOOK_EVENTS` in hooks/types.ts). */
export type HookEventName =
  | 'SessionStart'
  | 'SessionEnd'
  | 'BeforeAgent'
  | 'AfterAgent'
  | 'BeforeModel'
  | 'AfterModel'
  | 'BeforeToolSelection'
  | 'BeforeTool'
  | 'AfterTool'
  | 'PreCompress'
  | 'Notification';

/** One `{type: "command", …}` entry of a hook definition, as written in settings. */
export interface CommandHookSettings {
  /** Only `command` hooks run (the default); others are reported and skipped. */
  type?: string;
  command?: string;
  name?: string;
  /** Milliseconds (default 60,000). */
  timeout?: number;
  description?: string;
  /** Numbers and booleans are passed on as text. */
  env?: Record<string, string | number | boolean>;
}

/** One element of `hooks.<Event>` in settings. */
export interface HookDefinitionSettings {
  matcher?: string;
  sequential?: boolean;
  hooks?: CommandHookSettings[];
}

export type HooksSettings = Partial<Record<HookEventName, HookDefinitionSettings[]>>;

export interface HooksConfigSettings {
  /** Default true: false turns every hook off. */
  enabled?: boolean;
  /** Hook names or commands that must not run (a union across settings scopes). */
  disabled?: string[];
  notifications?: boolean;
}

/** One `mcpServers.<name>` entry as written in a settings file. */
export interface McpServerSettings {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Remote server; `type` picks the transport, without it Streamable HTTP falls back to SSE. */
  url?: string;
  /** Deprecated spelling of a Streamable HTTP `url`; wins over `url`. */
  httpUrl?: string;
  type?: string;
  headers?: Record<string, string>;
  /** Milliseconds for connecting and for each request. */
  timeout?: number;
  /** Run this server's tools without asking (outside plan mode). */
  trust?: boolean;
  includeTools?: string[];
  excludeTools?: string[];
  description?: string;
  /** OAuth for a remote server (docs/mcp.md); without it kodo still uses tokens `kodo mcp auth` stored. */
  oauth?: McpOAuthSettings;
}

/** Gemini CLI's `mcpServers.<name>.oauth` object. */
export interface McpOAuthSettings {
  /** `false` turns OAuth off for the server, stored tokens included. */
  enabled?: boolean;
  /** A client registered beforehand; without it kodo registers one (dynamic client registration). */
  clientId?: string;
  clientSecret?: string;
  /** Skip discovery: the authorization server's endpoints as given. */
  authorizationUrl?: string;
  tokenUrl?: string;
  scopes?: string[];
  /** The loopback address the browser returns to (default `http://127.0.0.1:<free port>/oauth/callback`). */
  redirectUri?: string;
  /** Sent as the `audience` parameter of the authorization and token requests. */
  audiences?: string[];
  /** Accepted for compatibility; kodo always sends the token in the Authorization header. */
  tokenParamName?: string;
}

/** The global `mcp` settings group. */
export interface McpGlobalSettings {
  /** Only these servers are connected (and their tools allowed without asking). */
  allowed?: string[];
  /** These servers are never connected, and their tools are refused. */
  excluded?: string[];
}

export interface BudgetSettings {
  maxBudgetUsd?: number;
  maxTokens?: number;
  maxToolCalls?: number;
  /** Seconds, or a duration such as `"90s"`, `"15m"`, `"2h"`. */
  maxTime?: number | string;
}

/** Limits for subagents; `overrides` tunes one agent by name. */
export interface AgentsSettings {
  maxTurns?: number;
  maxTimeMinutes?: number;
  /** How deep subagents may start subagents of their own. */
  maxDepth?: number;
  overrides?: Record<string, AgentOverrideSettings>;
}

export interface AgentOverrideSettings {
  enabled?: boolean;
  model?: string;
  maxTurns?: number;
  maxTimeMinutes?: number;
  effort?: SettingsEffort;
}
