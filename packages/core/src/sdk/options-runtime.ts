/**
 * The SDK's preset that reads nothing: a Runtime built from the program's options alone. No
 * settings file, context file (KODO.md, GEMINI.md, AGENTS.md), policy file, hook, MCP server or
 * extension is read, whatever KODO_HOME and the project hold. Sessions still come from the one
 * Runtime class every front end uses, so they end in its one teardown order.
 */
import { join } from 'node:path';
import type { BudgetLimits } from '../agent/budgets';
import { projectTempDir } from '../config/project';
import type { ContentGenerator } from '../contracts/content-generator';
import {
  missingKeyMessage,
  ProviderConfigError,
  ProviderResolver,
  UnknownProviderError,
} from '../llm/providers/registry';
import { ProviderRouter } from '../llm/providers/router';
import type { BuiltGenerator } from '../runtime/generator';
import { Runtime } from '../runtime/runtime';
import { RuntimeSetupError } from '../runtime/setup-error';
import type { ApprovalMode, PolicyChecker } from '../scheduler/policy/policy';
import type { ConfirmHandler } from '../scheduler/scheduler';
import { type ApprovalLockdown, decideApprovalMode } from '../session/approval-mode-gate';
import { builtinTools } from '../tools/builtin/index';
import { DEFAULT_OUTPUT_THRESHOLD_CHARS } from '../tools/output-limit';
import { ToolRegistry } from '../tools/registry';
import { backgroundJobsIn } from '../tools/shell/background-jobs';
import { DEFAULT_SHELL_INACTIVITY_TIMEOUT_MS, type Tool } from '../tools/tool';
import { Workspace } from '../tools/workspace';
import { sanitizeEnv } from '../utils/env';
import { sdkApprovals } from './sdk-approvals';

/** Everything a program chooses when it runs kodo; every field but `cwd` has a default. */
export interface CreateSessionOptions {
  /** The project directory: file tools stay inside it. */
  cwd: string;
  /** `provider:model` (`gemini:gemini-2.5-flash`, `openai:gpt-5`, `anthropic:…`, `ollama:…`) or a bare Gemini id. */
  model?: string;
  /** Where API keys and base URLs are read (default `process.env`); never passed to commands. */
  env?: NodeJS.ProcessEnv;
  /** Your own model backend instead of the built-in providers; `model` is then sent as it is. */
  generator?: ContentGenerator;
  /** `default` (the default): reads run, everything else asks; `auto_edit`, `yolo`, `plan`. */
  approvalMode?: ApprovalMode;
  /**
   * Modes this session may never enter (`{ yoloRefusedBy: 'security.disableYoloMode' }`), as kodo's
   * settings lock them: `approvalMode` and `setApprovalMode` are refused past it.
   */
  approvalLockdown?: ApprovalLockdown;
  /** Rules beyond the approval mode (e.g. a `PolicyEngine` loaded from TOML files). */
  policy?: PolicyChecker;
  /** Answers approval questions; without it, calls that would ask are refused (headless). */
  confirm?: ConfirmHandler;
  /** Tools added to (or, with `builtinTools: false`, instead of) kodo's own. */
  tools?: Tool[];
  builtinTools?: boolean;
  /** Replaces kodo's system prompt. */
  systemInstruction?: string;
  /** Hard limits on cost, tokens, tool calls and time for the whole session. */
  budgets?: BudgetLimits;
  /** Model round trips allowed for one prompt (default 100). */
  maxTurnsPerPrompt?: number;
}

const DEFAULT_MODEL = 'gemini-2.5-pro';

/**
 * A runtime that reads nothing: the provider `model` names (or `generator`), kodo's built-in
 * tools in a workspace rooted at `cwd`, the approval mode and `policy`. Sessions come from
 * `runtime.newSession()` and keep no log; `runtime.close()` ends them and stops their background
 * commands. Setup problems reject with RuntimeSetupError (`auth`: no key; `input`: an unknown
 * provider; `config`: a refused approval mode or a broken provider setting).
 */
export async function createRuntimeFromOptions(options: CreateSessionOptions): Promise<Runtime> {
  return runtimeFromOptions(options);
}

/**
 * createRuntimeFromOptions without the promise, for `createSession` (whose API is synchronous).
 * `sessionDisposesRuntime`: a session's `dispose()` is the runtime's `close()` (a runtime made
 * for one session, which the program never sees).
 */
export function runtimeFromOptions(
  options: CreateSessionOptions,
  ownership: { sessionDisposesRuntime?: boolean } = {},
): Runtime {
  const env = options.env ?? process.env;
  const first = decideApprovalMode(
    { mode: options.approvalMode ?? 'default', source: 'sdk' },
    { lockdown: options.approvalLockdown ?? {} },
  );
  if (!first.ok) throw new RuntimeSetupError(first.message, 'config');
  const generator = options.generator
    ? {
        generator: options.generator,
        model: options.model ?? DEFAULT_MODEL,
        flush: async () => undefined,
      }
    : providerFor(options.model ?? DEFAULT_MODEL, env);
  const tools = new ToolRegistry([
    ...(options.builtinTools === false ? [] : builtinTools()),
    ...(options.tools ?? []),
  ]);
  // Paths only: nothing is read there. Background commands write their logs under it, as in the CLI.
  const tempDir = projectTempDir(options.cwd, env);
  const jobs = backgroundJobsIn(tempDir);
  // The default cap, nothing spilled to disk.
  const outputLimit = { thresholdChars: DEFAULT_OUTPUT_THRESHOLD_CHARS, spillDir: undefined };
  const runtime: Runtime = new Runtime({
    options: {
      settings: {},
      cwd: options.cwd,
      env,
      // Nothing of the folder's is read, so nothing of it needs trusting.
      trusted: false,
      approvals: sdkApprovals(options),
    },
    model: generator.model,
    generator,
    tools,
    tempDir,
    // Read by hooks only, and this runtime has none.
    plansDir: join(tempDir, 'plans'),
    jobs,
    sessionLogs: 'none',
    sessionOptions: {
      generator: generator.generator,
      model: generator.model,
      ...(generator.contextWindows ? { contextWindows: generator.contextWindows } : {}),
      ...(generator.models ? { models: generator.models } : {}),
      tools,
      toolContext: {
        workspace: new Workspace({ roots: [options.cwd] }),
        env: sanitizeEnv(env),
        shellInactivityTimeoutMs: DEFAULT_SHELL_INACTIVITY_TIMEOUT_MS,
        shell: { jobs, outputLimit },
      },
      outputLimit,
      approvalMode: first.mode,
      ...(options.approvalLockdown ? { approvalLockdown: options.approvalLockdown } : {}),
      ...(options.policy ? { policy: options.policy } : {}),
      ...(options.systemInstruction !== undefined ? { systemInstruction: options.systemInstruction } : {}),
      ...(options.budgets ? { budgets: options.budgets } : {}),
      ...(options.maxTurnsPerPrompt !== undefined ? { maxTurnsPerPrompt: options.maxTurnsPerPrompt } : {}),
      ...(ownership.sessionDisposesRuntime ? { disposeRun: () => runtime.close() } : {}),
    },
  });
  return runtime;
}

/** The provider router for `spec`; the environment is the only thing read (its keys and URLs). */
function providerFor(spec: string, env: NodeJS.ProcessEnv): BuiltGenerator {
  try {
    const resolver = new ProviderResolver({ env });
    const { connection, spec: model } = resolver.resolve(spec);
    if (connection.missingKey) throw new RuntimeSetupError(missingKeyMessage(connection), 'auth');
    const router = new ProviderRouter({ resolver, env, defaultModel: model });
    return {
      generator: router,
      model,
      contextWindows: router.contextWindows,
      models: router.models,
      flush: async () => undefined,
    };
  } catch (error) {
    if (error instanceof ProviderConfigError) throw new RuntimeSetupError(error.message, 'config');
    if (error instanceof UnknownProviderError) throw new RuntimeSetupError(error.message, 'input');
    throw error;
  }
}
