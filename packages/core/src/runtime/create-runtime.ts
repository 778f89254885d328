/**
 * createRuntime: reads flags, settings and the environment once and builds the parts a Runtime
 * owns (runtime.ts says who owns what and the order they end in).
 */
import { join } from 'node:path';
import { geminiHome, kodoHome } from '../config/paths';
import { projectTempDir } from '../config/project';
import { ProjectMemory } from '../context/memory-files';
import type { HookFeedback } from '../hooks/types';
import { loadHookSystem } from '../on-demand';
import { loadPolicyEngine, namedPolicyPaths, PolicyLoadError } from '../scheduler/policy/sources';
import { lazyBuiltinTools } from '../tools/builtin/declared';
import { cleanupInterruptedWrites } from '../tools/interrupted-writes';
import { ToolRegistry } from '../tools/registry';
import { backgroundJobsIn } from '../tools/shell/background-jobs';
import { DEFAULT_SHELL_INACTIVITY_TIMEOUT_MS } from '../tools/tool';
import { hasNativeWebSearch } from '../tools/web/search-api';
import { Workspace } from '../tools/workspace';
import { sanitizeEnv } from '../utils/env';
import { newSessionId } from '../utils/ids';
import {
  hookConfig,
  mcpInstructionsBlock,
  refuseUnpricedBudget,
  resolveOrFail,
  skillsOption,
  telemetryFor,
  withAllowedServers,
  withAllowedTools,
} from './assembly';
import { checkEnforcedAuth, providerTypeOf } from './auth';
import { loadRuntimeExtensibility, subagentsFrom } from './extensibility';
import type { RuntimeFlags } from './flags';
import { buildGenerator, modelTimeouts } from './generator';
import { startMcpServers } from './mcp-servers';
import { type RuntimeOptions, type RuntimeParts, stderrWarning } from './options';
import { Runtime } from './runtime';
import { safetyOptions } from './safety';
import { RuntimeSetupError } from './setup-error';
import { workspaceRoots } from './workspace-roots';

/**
 * Assembles the engine from flags, settings and the environment: the model backend, the tools and
 * what they may touch, policy, hooks, MCP servers, approval, limits. Setup problems throw
 * RuntimeSetupError (its `failure` says which kind).
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { settings, env, cwd, trusted } = options;
  const flags: RuntimeFlags = options.flags ?? {};
  const firstSessionId = options.sessionId ?? newSessionId();
  const onWarning = options.onWarning ?? stderrWarning;
  // What users bring (docs/extending.md): its MCP servers and excluded tools join the settings.
  const extensibility = await loadRuntimeExtensibility({
    extensions: flags.extensions,
    settings,
    ...(options.settingsScopes ? { settingsScopes: options.settingsScopes } : {}),
    cwd,
    env,
    trusted,
    ...(options.customCommands === false ? { commands: false } : {}),
    onWarning,
    ...(options.buildKey ? { buildKey: options.buildKey } : {}),
  });
  const effectiveSettings = extensibility?.settings ?? settings;
  const config = resolveOrFail(flags, env, effectiveSettings, { trusted });
  const injected = options.generator?.(config.model);
  // An injected generator (the tools-only session of `kodo mcp serve`) calls no model to check.
  if (!injected)
    checkEnforcedAuth(effectiveSettings, { model: config.model, env, providers: config.providers });
  const generator =
    injected ??
    (await buildGenerator({
      fakeResponses: flags.fakeResponses,
      fakeResponsesStrict: flags.fakeResponsesStrict ?? true,
      recordResponses: flags.recordResponses,
      debug: flags.debug ?? false,
      sessionId: firstSessionId,
      env,
      model: config.model,
      providers: config.providers,
      timeouts: modelTimeouts(settings),
      sampling: config.sampling,
      effort: config.effort,
      effortOverride: config.effortOverride,
      onWarning,
    }));
  // `provider:model` with the provider's default filled in; the router reads it on every request.
  const model = generator.model;
  const tempDir = projectTempDir(cwd, env);
  // Temp files of edits a killed run left next to their targets (see interrupted-writes.ts).
  void cleanupInterruptedWrites(tempDir);
  const memory = new ProjectMemory({
    fileNames: config.memory.fileNames,
    globalDirs: [kodoHome(env), geminiHome(env)],
    workspaceRoots: [cwd],
    boundaryMarkers: config.memory.boundaryMarkers,
    includeProjectFiles: trusted,
    ...(extensibility ? { extraGlobalFiles: extensibility.contextFiles } : {}),
  });
  await memory.load();
  const tools = new ToolRegistry(lazyBuiltinTools());
  // web_search is offered where it can answer: a configured search API, or a provider that
  // searches itself (Gemini models have google_web_search).
  if (!config.toolContext.webSearch && !hasNativeWebSearch(providerTypeOf(model, env, config.providers))) {
    tools.unregister('web_search');
  }
  const skills = await skillsOption(extensibility, tools);
  const roots = workspaceRoots(cwd, flags, settings, env);
  // One plans folder for the run: plan files written before a /clear stay where the policy allows them.
  const plansDir = join(tempDir, firstSessionId, 'plans');
  const policy = await loadPolicyEngine({
    cwd,
    env,
    ...namedPolicyPaths({
      flags,
      settings: options.settingsScopes?.map(({ scope, settings: own }) => ({ scope, ...own })) ?? [
        { scope: 'user', ...settings },
      ],
    }),
    toolSettings: withAllowedTools(config.toolPolicy, flags.allowedTools),
    ...(extensibility?.policyDirs.length ? { extensionPolicyDirs: extensibility.policyDirs } : {}),
    plansDir,
    onFeedback: options.onPolicyFeedback ?? stderrWarning,
    includeWorkspacePolicies: trusted,
  }).catch((error: unknown) => {
    // A policy that cannot be loaded is a configuration error: nothing runs without it.
    if (error instanceof PolicyLoadError) throw new RuntimeSetupError(error.message, 'config');
    throw error;
  });
  const { hookSandbox, ...safety } = await safetyOptions({
    sandboxFlag: flags.sandbox === true,
    sandboxSetting: config.sandboxSetting,
    ...(config.checkpointing ? { checkpointing: config.checkpointing } : {}),
    cwd,
    roots,
    env,
    interactive: options.approvals.interactive,
  });
  refuseUnpricedBudget(config, model, generator.models);
  const telemetry = await telemetryFor(config.telemetry, {
    sessionId: firstSessionId,
    interactive: options.approvals.interactive,
  });
  const onHookFeedback =
    options.onHookFeedback ??
    ((feedback: HookFeedback) =>
      process.stderr.write(`[${feedback.severity === 'info' ? 'INFO' : 'WARNING'}] ${feedback.message}\n`));
  const hooks = hookConfig({
    settings,
    settingsScopes: options.settingsScopes,
    extensionHooks: extensibility?.hookSources ?? [],
    allowProjectHooks: options.allowProjectHooks ?? trusted,
    onFeedback: onHookFeedback,
  });
  // The hook runner loads only when hooks are configured.
  const hookModule = hooks ? await loadHookSystem() : undefined;
  const { outputThresholdChars, ...fromSettings } = config.session;
  const outputLimit = { thresholdChars: outputThresholdChars, spillDir: tempDir };
  // Background commands outlive a /clear (they belong to the run) and end at close().
  const jobs = backgroundJobsIn(tempDir);
  const parts: RuntimeParts = {
    options: { ...options, onHookFeedback },
    model,
    generator,
    tools,
    policy,
    memory,
    tempDir,
    plansDir,
    jobs,
    sessionLogs: 'store',
    ...(safety.sandbox ? { sandbox: safety.sandbox } : {}),
    ...(hookSandbox ? { hookSandbox } : {}),
    ...(hooks && hookModule ? { hooks: { config: hooks, HookSystem: hookModule.HookSystem } } : {}),
    ...(telemetry ? { telemetry } : {}),
    ...(extensibility ? { extensibility } : {}),
    sessionOptions: {
      ...(telemetry ? { telemetry } : {}),
      systemAddendum: () => mcpInstructionsBlock(parts.mcp),
      generator: generator.generator,
      ...(generator.contextWindows ? { contextWindows: generator.contextWindows } : {}),
      ...(generator.models ? { models: generator.models } : {}),
      model,
      tools,
      toolContext: {
        workspace: new Workspace({ roots, tempDir }),
        env: sanitizeEnv(env),
        shellInactivityTimeoutMs: DEFAULT_SHELL_INACTIVITY_TIMEOUT_MS,
        memoryFilePath: join(kodoHome(env), 'KODO.md'),
        plansDir,
        shell: { jobs, outputLimit, ...(safety.sandbox ? { sandbox: safety.sandbox } : {}) },
        ...(options.askUser ? { askUser: options.askUser } : {}),
        ...config.toolContext,
        ...(options.textFiles ? { textFiles: options.textFiles } : {}),
        ...(options.terminals ? { terminals: options.terminals } : {}),
        ...(options.pseudoTerminal ? { pseudoTerminal: options.pseudoTerminal } : {}),
      },
      memory,
      ...skills,
      ...(extensibility ? { agents: subagentsFrom(extensibility.loaded.agents) } : {}),
      policy,
      ...fromSettings,
      outputLimit,
      ...safety,
      budgets: config.budgets,
    },
  };
  const runtime = new Runtime(parts);
  const warn = options.onWarning ?? (options.approvals.interactive ? undefined : stderrWarning);
  parts.mcp = await startMcpServers({
    settings: withAllowedServers(effectiveSettings, flags.allowedMcpServerNames),
    env,
    cwd,
    trusted,
    tools,
    policy,
    model: () => runtime.currentModel(),
    clientInfo: options.clientInfo ?? { name: 'kodo', version: '0.0.0' },
    discovery: options.mcpDiscovery ?? 'background',
    ...(warn ? { onWarning: warn } : {}),
  });
  return runtime;
}
