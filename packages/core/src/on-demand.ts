// Every part of the engine that loads on demand, in one list. Each `import()` here is a split
// point of the bundle (scripts/build.mjs): its module and what only it needs go into chunks of
// their own, which a run loads only when it needs that part. Everything else is loaded plainly
// by Node's module loader (with Node's compile cache where Node has one; see main.ts in the cli).
// The cli's modes and screens have the same list in packages/cli/src/on-demand.ts.

/** Extensibility's discovery, parsing, install and management: loaded by every run that reads what users bring. */
export type ExtensionsModule = typeof import('./extensions/index');
export function loadExtensionsModule(): Promise<ExtensionsModule> {
  return import('./extensions/index');
}

/** What a run needs of extensibility to declare skills (prompt section, `activate_skill`'s spec). */
export type ExtensionsStartupModule = typeof import('./extensions/startup');
export function loadExtensionsStartupModule(): Promise<ExtensionsStartupModule> {
  return import('./extensions/startup');
}

/** The built-in tools' implementations (zod, the tools' libraries), on the first call to any. */
export type BuiltinToolsModule = typeof import('./tools/builtin/index');
export function loadBuiltinToolsModule(): Promise<BuiltinToolsModule> {
  return import('./tools/builtin/index');
}

/**
 * One module per provider, loaded when a model of that provider is first asked. Not Gemini, the
 * default: its client is part of the first request's code, which every run loads in one chunk
 * (scripts/first-request-chunk.mjs), so the registry imports it statically and Node 20 reads one
 * file fewer before the first request.
 */
export const loadProvider = {
  openai: () => import('./llm/providers/openai'),
  anthropic: () => import('./llm/providers/anthropic'),
  /** Asking a local server for its context window: local servers only. */
  contextDiscovery: () => import('./llm/providers/context-discovery'),
};

/** The replay, recording and debug-log generators, loaded only when a flag asks for one. */
export type ReplayGenerators = typeof import('./llm/replay');
export function loadReplayGenerators(): Promise<ReplayGenerators> {
  return import('./llm/replay');
}

/**
 * The hook runner (processes, the protocol, model-request steps), loaded only when settings or
 * extensions configure a hook: a run without hooks reads their configuration and nothing more.
 */
export type HookSystemModule = typeof import('./hooks/hook-system');
export function loadHookSystem(): Promise<HookSystemModule> {
  return import('./hooks/hook-system');
}

/** The MCP client (and the SDK behind it), loaded only when a server is configured. */
export type McpModule = typeof import('./mcp/index');
export function loadMcpModule(): Promise<McpModule> {
  return import('./mcp/index');
}

/** Checkpointing (the shadow git store), loaded only when `general.checkpointing` is on. */
export type Checkpointing = typeof import('./safety/checkpoints');
export function loadCheckpointing(): Promise<Checkpointing> {
  return import('./safety/checkpoints');
}

/** Other tools' sessions (listing, importing), loaded only by a run that lists or resumes sessions. */
export type ForeignSessions = typeof import('./session/foreign/foreign-sessions');
export function loadForeignSessions(): Promise<ForeignSessions> {
  return import('./session/foreign/foreign-sessions');
}

/**
 * Text with a file's own line endings (and the diff library behind it): the file tools load it
 * with their own code; the ACP editor's reads and writes through this.
 */
export type FileTextModule = typeof import('./tools/file-text');
export function loadFileText(): Promise<FileTextModule> {
  return import('./tools/file-text');
}

/** The input pipeline's file readers (`@path`, images): only when a prompt names a file. */
export type InputFilesModule = typeof import('./input/files');
export function loadInputFiles(): Promise<InputFilesModule> {
  return import('./input/files');
}

/** `kodo doctor`'s checks, loaded only by that command. */
export type DoctorModule = typeof import('./doctor/checks');
export function loadDoctorModule(): Promise<DoctorModule> {
  return import('./doctor/checks');
}

/** Smaller parts, each loaded by the one feature that needs it. */
export const loadPart = {
  /** OpenTelemetry export: only when telemetry is on. */
  otel: () => import('./telemetry/otel'),
  /** The shell grammar (tree-sitter) the policy parses commands with: at the first shell call. */
  shellParser: () => import('./scheduler/policy/shell-parser'),
  /**
   * What options make a parsed command write a file or run a program (`git log --output=x`,
   * `find -exec`, sed scripts): with the shell grammar, at the first shell call (~29 KB of
   * tables and readers that Node 20 would otherwise parse on every start).
   */
  optionEffects: () => import('./scheduler/policy/option-effects'),
  /** TOML policy files: only when there are some. */
  policyToml: () => import('./scheduler/policy/toml-rules'),
  /** Reading a saved session back: `--resume` only. */
  sessionResume: () => import('./session/resume'),
  /** MCP resources named in a prompt (`@server:uri`): only when a server offers resources. */
  mcpResources: () => import('./mcp/resources'),
  /** An MCP server's OAuth sign-in: only when a server asks for it. */
  mcpOAuth: () => import('./mcp/oauth-flow'),
  /** Proxy agents for node:http(s) clients: only when a proxy variable is set. */
  proxyAgents: () => import('./net/proxy-agents'),
  /** Node's fetch routed through a proxy (undici): only when a proxy variable is set. */
  proxyDispatcher: () => import('./net/proxy-dispatcher'),
};
