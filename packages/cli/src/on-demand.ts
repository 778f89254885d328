// Every part of the cli that loads on demand, in one list: each mode, subcommand and screen.
// Each `import()` here is a split point of the bundle (scripts/build.mjs), so a run loads only
// the mode it runs; the engine's parts that load on demand are listed in core's on-demand.ts.
export const onDemand = {
  // Modes (run.ts picks one per run). The headless mode is not here: it is the first request's
  // way (`kodo -p`), whose code is one chunk every mode loads anyway
  // (scripts/first-request-chunk.mjs), so run.ts imports it statically and saves Node 20 a file.
  interactive: () => import('./ui/start'),
  acp: () => import('./acp/run-acp'),
  demo: () => import('./demo/run-demo'),
  // Subcommands.
  mcpCommand: () => import('./commands/mcp'),
  mcpServe: () => import('./commands/mcp-serve'),
  mcpAuth: () => import('./commands/mcp-auth'),
  extensionsCommand: () => import('./commands/extensions'),
  skillsCommand: () => import('./commands/skills'),
  agentsCommand: () => import('./commands/agents'),
  modelsCommand: () => import('./commands/models'),
  hooksCommand: () => import('./commands/hooks'),
  doctorCommand: () => import('./commands/doctor'),
  completionCommand: () => import('./commands/completion'),
  sessions: () => import('./shared/sessions'),
  worktree: () => import('./worktree'),
  trustPrompt: () => import('./trust-prompt'),
  // Within a mode: the terminal UI's React tree, headless output formats and input, a headless
  // `!command`, auto-memory's proposals, and the memory-saving mode of long sessions.
  uiMount: () => import('./ui/mount'),
  streamInput: () => import('./headless/stream-input'),
  jsonOutput: () => import('./headless/json'),
  streamJsonOutput: () => import('./headless/stream-json'),
  structuredOutput: () => import('./headless/structured-output'),
  headlessShellLine: () => import('./headless/shell-line'),
  autoMemory: () => import('./shared/auto-memory'),
  memoryMode: () => import('./shared/memory-mode'),
};
